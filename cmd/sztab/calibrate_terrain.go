package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sztab/sztab/vision"
)

func newCalibrateTerrainCmd() *cobra.Command {
	var configPath, out string
	var images, regions []string
	var frames int
	cmd := &cobra.Command{
		Use:   "terrain",
		Short: "Learn the colours of cover, template and objective markers under the table's light",
		Long: `Learns, under the table's own light, the colours the camera reads the table by:
light cover (yellow), heavy cover (green), template markers (orange) and
objective markers (blue discs, 40 mm by default; the size is measured).

Lay one piece of each on the bare table, in view and apart, with no models
on it, then run this. Each sample is found as the most colourful blob
nearest its colour; --region light=x0,y0,x1,y1 (table mm, inside the piece)
names where a sample lies instead. Takes --frames frames from the camera, or
--image files. A class whose colours the bare table shares, or two classes
too alike, are refused with the reason (exit status 3); nothing is saved.
The file goes to camera.terrain (or --out); the daemon reads terrain only
with it.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadCameraConfig(configPath)
			if err != nil {
				return err
			}
			if out == "" {
				out = cfg.Terrain
			}
			if out == "" {
				return errors.New("no camera.terrain in the config and no --out: where should the terrain calibration go?")
			}
			rs, err := parseRegions(regions)
			if err != nil {
				return err
			}
			tc, err := vision.CalibrateTerrainFrom(cmd.Context(), cfg, vision.TerrainOptions{Images: expandGlobs(images), Frames: frames, Regions: rs}, slog.Default())
			if err != nil {
				if strings.Contains(err.Error(), "calibrate terrain:") {
					fmt.Fprintln(cmd.OutOrStdout(), "NOT SAVED:", err)
					return calibrateError{err}
				}
				return err
			}
			printTerrain(cmd.OutOrStdout(), tc)
			if err := tc.Save(out); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "saved %s\n", out)
			return nil
		},
	}
	cmd.Flags().StringVar(&configPath, "config", "/etc/sztab/table.yaml", "table configuration (with camera:) or camera settings file")
	cmd.Flags().StringSliceVar(&images, "image", nil, "learn from these images instead of the camera (repeatable)")
	cmd.Flags().IntVar(&frames, "frames", 3, "frames to take from the camera")
	cmd.Flags().StringArrayVar(&regions, "region", nil, "CLASS=x0,y0,x1,y1: the sample of light, heavy, template or objective lies in this rectangle (table mm)")
	cmd.Flags().StringVar(&out, "out", "", "where to save (default: camera.terrain)")
	return cmd
}

func expandGlobs(ps []string) []string {
	var out []string
	for _, p := range ps {
		out = append(out, expandGlob(p))
	}
	return out
}

// parseRegions reads --region CLASS=x0,y0,x1,y1 flags.
func parseRegions(flags []string) (map[string][4]float64, error) {
	out := map[string][4]float64{}
	for _, f := range flags {
		class, rect, ok := strings.Cut(f, "=")
		known := false
		for _, c := range vision.TerrainClasses {
			known = known || c == class
		}
		if !ok || !known {
			return nil, fmt.Errorf("--region %q: want CLASS=x0,y0,x1,y1 with CLASS one of %s", f, strings.Join(vision.TerrainClasses, ", "))
		}
		parts := strings.Split(rect, ",")
		if len(parts) != 4 {
			return nil, fmt.Errorf("--region %q: want four numbers x0,y0,x1,y1 (table mm)", f)
		}
		var r [4]float64
		for i, p := range parts {
			v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
			if err != nil || v != v || v < -1e5 || v > 1e5 {
				return nil, fmt.Errorf("--region %q: %q is not a number of mm", f, p)
			}
			r[i] = v
		}
		if r[2] <= r[0] || r[3] <= r[1] {
			return nil, fmt.Errorf("--region %q: want x0 < x1 and y0 < y1", f)
		}
		out[class] = r
	}
	return out, nil
}

func printTerrain(w io.Writer, c *vision.TerrainCalibration) {
	fmt.Fprintf(w, "terrain colours for %d×%d frames (OpenCV HSV: hue 0–179)\n", c.Width, c.Height)
	names := map[string]string{vision.ClassLight: "light cover (yellow)", vision.ClassHeavy: "heavy cover (green)",
		vision.ClassTemplate: "template (orange)", vision.ClassObjective: "objective (blue)"}
	for _, class := range vision.TerrainClasses {
		r := c.Range(class)
		fmt.Fprintf(w, "  %-22s hue %3d–%-3d saturation %3d–%-3d value %3d–%-3d (sample median %v)\n", names[class], r.Hue[0], r.Hue[1], r.Sat[0], r.Sat[1], r.Val[0], r.Val[1], r.Median)
	}
	fmt.Fprintf(w, "  bare table             median %v, brightness %.0f; objective markers %.0f mm\n", c.Table, c.Brightness, c.ObjectiveMM)
}
