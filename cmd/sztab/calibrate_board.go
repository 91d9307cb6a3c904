package main

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sztab/sztab/vision"
	"github.com/sztab/sztab/vision/board"
)

func newCalibrateBoardCmd() *cobra.Command {
	var configPath, game, boardFile, out string
	var images []string
	cmd := &cobra.Command{
		Use:   "board",
		Short: "Find a printed board from its corner markers and save its calibration",
		Long: `Finds the printed board's corner markers (the board file's, or those of
the game's built-in board, which its spec names) in one frame from the camera
or in --image files, maps the board's millimetres to the image and saves the
calibration. Every corner marker must
be seen where the board file puts it; otherwise nothing is saved (exit
status 3) and the error names the marker. Set camera.board to the file
written: each snapshot then counts the pieces on the board.

Games with a built-in board: ` + strings.Join(games.Boards().Games(), ", ") + `.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadCameraConfig(configPath)
			if err != nil {
				return err
			}
			if out == "" {
				out = cfg.Board
			}
			if out == "" {
				return errors.New("calibrate board: where to save? give --out or set camera.board")
			}
			cfg.Boards = games.Boards()
			cal, err := vision.CalibrateBoardFrom(cmd.Context(), cfg, vision.BoardOptions{Game: game, Board: boardFile, Images: images}, slog.Default())
			if errors.Is(err, board.ErrMarkers) {
				return calibrateError{err}
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "board %s: corner markers %v, RMS %.2f px, %.2f mm/px at the centre, camera %.0f mm above the board\n",
				cal.Game, cal.Markers, cal.RMSPx, cal.MMPerPx, cal.CameraMM[2])
			if err := cal.Save(out); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "saved %s\n", out)
			return nil
		},
	}
	cmd.Flags().StringVar(&configPath, "config", "/etc/sztab/table.yaml", "table configuration (with camera:) or camera settings file")
	cmd.Flags().StringVar(&game, "game", "", "the game's config id: "+strings.Join(games.Boards().Games(), ", "))
	cmd.Flags().StringVar(&boardFile, "board", "", "a board definition file (default: the game's built-in board)")
	cmd.Flags().StringSliceVar(&images, "image", nil, "calibrate on these images instead of a camera frame (repeatable)")
	cmd.Flags().StringVar(&out, "out", "", "where to save (default: camera.board)")
	_ = cmd.MarkFlagRequired("game")
	return cmd
}
