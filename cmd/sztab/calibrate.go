package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sztab/sztab/vision"
)

func init() { register(newCalibrateCmd) }

// calibrateError is a calibration that was refused; it exits with 3.
type calibrateError struct{ err error }

func (e calibrateError) Error() string { return e.err.Error() }
func (e calibrateError) Unwrap() error { return e.err }
func (e calibrateError) ExitCode() int { return 3 }

func newCalibrateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "calibrate",
		Short: "Calibrate the camera: lens, table frame, markers to print, a check snapshot",
		Long: `Calibrate the table camera.

  sztab calibrate lens     the lens, from 10–20 views of a printed chessboard
  sztab calibrate table    the table frame, from the fiducial markers
  sztab calibrate terrain  the colours of cover, template and objective markers
  sztab calibrate check    one snapshot now, as JSON, and its annotated image
  sztab calibrate markers  the registry's markers as SVG pages to print at 100%
  sztab calibrate board    a printed board (Bitwa, Mali) from its corner markers

The camera settings come from --config: a table configuration with a camera:
section, or a file holding only camera settings.`,
	}
	cmd.AddCommand(newCalibrateTableCmd(), newCalibrateLensCmd(), newCalibrateCheckCmd(), newCalibrateMarkersCmd(), newCalibrateTerrainCmd(), newCalibrateBoardCmd())
	return cmd
}

func loadCameraConfig(path string) (vision.Config, error) {
	cfg, err := vision.LoadConfig(path)
	if err != nil {
		return cfg, err
	}
	return cfg, nil
}

func newCalibrateTableCmd() *cobra.Command {
	var configPath, out string
	var images []string
	var frames int
	cmd := &cobra.Command{
		Use:   "table",
		Short: "Find the table frame from the fiducial markers and save it",
		Long: `Detects the fiducial markers (the registry's fiducials) in --frames frames from
the camera, or in --image files, fits the table plane (RANSAC homography,
Levenberg–Marquardt) and the camera pose for the parallax of the bases, and
reports the reprojection error at the fiducials in pixels and millimetres.
A calibration whose RMS error is over max_error_px or max_error_mm is not
saved (exit status 3). The lens calibration named by camera.lens is used
when the file exists; otherwise set camera.camera_height_mm.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadCameraConfig(configPath)
			if err != nil {
				return err
			}
			if out == "" {
				out = cfg.Calibration
			}
			cal, err := vision.CalibrateTableFrom(cmd.Context(), cfg, vision.TableOptions{Images: images, Frames: frames}, slog.Default())
			if cal != nil {
				printCalibration(cmd.OutOrStdout(), cal)
			}
			if errors.Is(err, vision.ErrOverBound) {
				fmt.Fprintln(cmd.OutOrStdout(), "NOT SAVED: the error is over the bound. Check that the fiducials sit where the registry says and are flat, that the lens calibration belongs to this camera, then try again.")
				return calibrateError{err}
			}
			if err != nil {
				return err
			}
			if err := cal.Save(out); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "saved %s\n", out)
			return nil
		},
	}
	cmd.Flags().StringVar(&configPath, "config", "/etc/sztab/table.yaml", "table configuration (with camera:) or camera settings file")
	cmd.Flags().StringSliceVar(&images, "image", nil, "calibrate on these images instead of the camera (repeatable)")
	cmd.Flags().IntVar(&frames, "frames", 10, "frames to take from the camera (the median of each corner is used)")
	cmd.Flags().StringVar(&out, "out", "", "where to save (default: camera.calibration)")
	return cmd
}

func printCalibration(w io.Writer, c *vision.Calibration) {
	fmt.Fprintf(w, "table calibration for %d×%d frames, %d frame(s)\n", c.Width, c.Height, c.Error.Frames)
	fmt.Fprintf(w, "  lens:      %s\n", c.LensSource)
	fmt.Fprintf(w, "  camera:    %.0f mm above the table over (%.0f, %.0f) mm, tilted %.1f°, %.3f mm per pixel at the centre\n",
		c.CameraMM[2], c.CameraMM[0], c.CameraMM[1], c.TiltDeg, c.MMPerPx)
	fmt.Fprintf(w, "  error:     RMS %.3f px (max %.3f) = RMS %.3f mm (max %.3f), %d of %d corners used\n",
		c.Error.RMSPx, c.Error.MaxPx, c.Error.RMSMM, c.Error.MaxMM, c.Error.Inliers, c.Error.Points)
	if c.Error.HoldoutMM > 0 {
		fmt.Fprintf(w, "  between:   a fiducial left out is placed %.3f mm RMS off by the others; positions carry %.3f mm from the calibration\n",
			c.Error.HoldoutMM, c.Error.PositionMM())
	}
	for _, f := range c.Fiducials {
		used := "used"
		if !f.Used {
			used = "LEFT OUT"
		}
		line := fmt.Sprintf("  fiducial %-3d seen in %d frame(s), %s, RMS %.3f px %.3f mm", f.Marker, f.Seen, used, f.RMSPx, f.RMSMM)
		if f.HoldoutMM > 0 {
			line += fmt.Sprintf(", %.3f mm when left out", f.HoldoutMM)
		}
		fmt.Fprintln(w, line)
	}
	for _, warn := range c.Warnings {
		fmt.Fprintf(w, "  warning:   %s\n", warn)
	}
}

func newCalibrateLensCmd() *cobra.Command {
	var configPath, out, board string
	var images []string
	var frames int
	var every time.Duration
	var k3 bool
	cmd := &cobra.Command{
		Use:   "lens",
		Short: "Calibrate the lens (camera matrix and distortion) from chessboard views",
		Long: `Finds a printed chessboard in --image files, or in --frames frames from the
camera taken --every apart (move and tilt the board between them, cover the
corners of the view), and fits the camera matrix and the distortion
(OpenCV calibrateCamera). --board gives the inner corners and the square size:
9x6@25 is a board of 10×7 squares of 25 mm. A lens whose RMS error is over
max_error_px is not saved (exit status 3). Run "sztab calibrate table" after.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadCameraConfig(configPath)
			if err != nil {
				return err
			}
			b, err := vision.ParseBoard(board)
			if err != nil {
				return err
			}
			if out == "" {
				out = cfg.Lens
			}
			if out == "" {
				return errors.New("no camera.lens in the config and no --out: where should the lens calibration go?")
			}
			w := cmd.OutOrStdout()
			lc, err := vision.CalibrateLensFrom(cmd.Context(), cfg, vision.LensOptions{
				Board: b, Images: images, Frames: frames, Every: every, FixK3: !k3,
				OnView: func(i int, name string, found bool) {
					if found {
						fmt.Fprintf(w, "  %s: chessboard found\n", name)
					} else {
						fmt.Fprintf(w, "  %s: no chessboard (all of it must be in view)\n", name)
					}
				},
			}, slog.Default())
			if lc != nil {
				fmt.Fprintf(w, "lens calibration for %d×%d frames from %d views: RMS %.3f px\n", lc.Width, lc.Height, lc.Views, lc.RMSPx)
				l := lc.Lens
				fmt.Fprintf(w, "  fx %.2f fy %.2f cx %.2f cy %.2f  k1 %.5f k2 %.5f p1 %.5f p2 %.5f k3 %.5f\n", l.FX, l.FY, l.CX, l.CY, l.K1, l.K2, l.P1, l.P2, l.K3)
			}
			if errors.Is(err, vision.ErrOverBound) {
				fmt.Fprintln(w, "NOT SAVED: the error is over the bound; take sharper views, flatter board.")
				return calibrateError{err}
			}
			if err != nil {
				return err
			}
			if err := lc.Save(out); err != nil {
				return err
			}
			fmt.Fprintf(w, "saved %s; now run: sztab calibrate table\n", out)
			return nil
		},
	}
	cmd.Flags().StringVar(&configPath, "config", "/etc/sztab/table.yaml", "table configuration (with camera:) or camera settings file")
	cmd.Flags().StringVar(&board, "board", "9x6@25", "chessboard: inner corners across x down @ square size in mm")
	cmd.Flags().StringSliceVar(&images, "image", nil, "chessboard images instead of the camera (repeatable, or a glob in quotes)")
	cmd.Flags().IntVar(&frames, "frames", 15, "views to take from the camera")
	cmd.Flags().DurationVar(&every, "every", 2*time.Second, "time between camera views (move the board)")
	cmd.Flags().BoolVar(&k3, "k3", false, "fit the sixth-order radial term too (wide-angle lenses)")
	cmd.Flags().StringVar(&out, "out", "", "where to save (default: camera.lens)")
	return cmd
}

func newCalibrateCheckCmd() *cobra.Command {
	var configPath, image, out string
	var pairs []string
	cmd := &cobra.Command{
		Use:   "check",
		Short: "Take one snapshot now and print it as JSON, with an annotated image",
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadCameraConfig(configPath)
			if err != nil {
				return err
			}
			var ps []vision.Pair
			for _, p := range pairs {
				a, b, ok := strings.Cut(p, ",")
				if !ok {
					return fmt.Errorf("--measure %q: want A,B (two model ids or units)", p)
				}
				ps = append(ps, vision.Pair{A: a, B: b})
			}
			snap, jpg, err := vision.SnapshotOf(cmd.Context(), cfg, expandGlob(image), ps, slog.Default())
			if err != nil {
				return err
			}
			if out != "" {
				if err := os.WriteFile(out, jpg, 0o644); err != nil {
					return err
				}
				snap.Image = out
			}
			enc := json.NewEncoder(cmd.OutOrStdout())
			enc.SetIndent("", "  ")
			return enc.Encode(snap)
		},
	}
	cmd.Flags().StringVar(&configPath, "config", "/etc/sztab/table.yaml", "table configuration (with camera:) or camera settings file")
	cmd.Flags().StringVar(&image, "image", "", "read this image instead of a camera frame")
	cmd.Flags().StringVar(&out, "out", "snapshot.jpg", "annotated image to write (empty: none)")
	cmd.Flags().StringArrayVar(&pairs, "measure", nil, "draw the distance between A,B (model ids or units; repeatable)")
	return cmd
}

func expandGlob(s string) string {
	if m, _ := filepath.Glob(s); len(m) == 1 {
		return m[0]
	}
	return s
}

func newCalibrateMarkersCmd() *cobra.Command {
	var markers, configPath, out string
	cmd := &cobra.Command{
		Use:   "markers",
		Short: "Write the registry's markers as A4 SVG pages to print at 100%",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if markers == "" {
				cfg, err := loadCameraConfig(configPath)
				if err != nil {
					return fmt.Errorf("%w (or give --markers)", err)
				}
				markers = cfg.Markers
			}
			reg, err := vision.LoadRegistry(markers)
			if err != nil {
				return err
			}
			pages := vision.MarkerSheets(reg, vision.A4)
			ext := filepath.Ext(out)
			base := strings.TrimSuffix(out, ext)
			for i, p := range pages {
				name := out
				if len(pages) > 1 {
					name = fmt.Sprintf("%s-%d%s", base, i+1, ext)
				}
				if err := os.WriteFile(name, p, 0o644); err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "wrote %s\n", name)
			}
			fmt.Fprintln(cmd.OutOrStdout(), "print at 100% (no fit-to-page) and check the 100 mm line with a ruler")
			return nil
		},
	}
	cmd.Flags().StringVar(&markers, "markers", "", "marker registry (default: camera.markers of --config)")
	cmd.Flags().StringVar(&configPath, "config", "/etc/sztab/table.yaml", "table configuration (with camera:) or camera settings file")
	cmd.Flags().StringVar(&out, "out", "markers.svg", "SVG to write (pages get -1, -2, … when there are several)")
	return cmd
}
