package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sztab/sztab/vision/dicetray"
)

func init() { register(newDiceCmd) }

// diceImageJSON is one image's reading in `sztab dice read --json`.
type diceImageJSON struct {
	Image     string         `json:"image"`
	SidePx    float64        `json:"side_px"`
	Dice      []dicetray.Die `json:"dice"`
	Annotated string         `json:"annotated,omitempty"`
}

func newDiceCmd() *cobra.Command {
	dice := &cobra.Command{
		Use:   "dice",
		Short: "The camera's dice reader",
	}
	var (
		asJSON bool
		out    string
		side   float64
		reader string
	)
	read := &cobra.Command{
		Use:   "read IMAGE...",
		Short: "Read the dice in photographs of a tray, as the camera reads them",
		Long: `Reads each image (JPEG or PNG, a tray seen from straight above) with the
reader the camera uses (docs/camera.md#dice-read-by-the-camera) and prints
each die found: its box in pixels, its value or "unreadable" with the
reason, its confidence and its colour. With --out, writes each image
annotated (DIR/NAME-dice.jpg): green boxes for dice read, red for
unreadable ones.`,
		Example: `  sztab dice read tray.jpg
  sztab dice read --json --out /tmp/dice photos/*.jpg`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if reader != "learned" && reader != "classical" {
				return fmt.Errorf("dice read: --reader %q: want learned or classical", reader)
			}
			r, err := dicetray.Open(dicetray.Options{SidePx: side, Classical: reader == "classical"})
			if err != nil {
				return err
			}
			defer r.Close()
			if out != "" {
				if err := os.MkdirAll(out, 0o755); err != nil {
					return fmt.Errorf("dice read: %w", err)
				}
			}
			var all []diceImageJSON
			w := cmd.OutOrStdout()
			for _, path := range args {
				f, err := dicetray.LoadImage(path)
				if err != nil {
					return err
				}
				reading, err := r.Read(f)
				if err != nil && !errors.Is(err, dicetray.ErrNoDieSize) {
					return fmt.Errorf("dice read: %s: %w", path, err)
				}
				img := diceImageJSON{Image: path, SidePx: reading.SidePx, Dice: reading.Dice}
				if img.Dice == nil {
					img.Dice = []dicetray.Die{}
				}
				if out != "" {
					jpg, err := dicetray.Annotate(f, reading)
					if err != nil {
						return err
					}
					name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)) + "-dice.jpg"
					img.Annotated = filepath.Join(out, name)
					if err := os.WriteFile(img.Annotated, jpg, 0o644); err != nil {
						return fmt.Errorf("dice read: %w", err)
					}
				}
				if asJSON {
					all = append(all, img)
					continue
				}
				fmt.Fprintf(w, "%s: %d dice, %d read, %d unreadable\n", path, len(img.Dice), len(reading.Values()), reading.Unreadable())
				for i, d := range img.Dice {
					s := d.Side
					box := fmt.Sprintf("(%.0f,%.0f)-(%.0f,%.0f)", d.Centre.X-s/2, d.Centre.Y-s/2, d.Centre.X+s/2, d.Centre.Y+s/2)
					what := fmt.Sprintf("%d", d.Value)
					if d.Value == 0 {
						what = "unreadable: " + d.Unreadable
					}
					fmt.Fprintf(w, "  %2d  %-22s %-8s %.3f  %s\n", i+1, box, d.Colour, d.Confidence, what)
				}
				if img.Annotated != "" {
					fmt.Fprintf(w, "  annotated: %s\n", img.Annotated)
				}
			}
			if asJSON {
				enc := json.NewEncoder(w)
				enc.SetIndent("", "  ")
				return enc.Encode(all)
			}
			return nil
		},
	}
	read.Flags().BoolVar(&asJSON, "json", false, "print the readings as JSON")
	read.Flags().StringVar(&out, "out", "", "write each image annotated into this directory")
	read.Flags().Float64Var(&side, "side", 0, "a die's side in the images, pixels (0: the reader's own measure)")
	read.Flags().StringVar(&reader, "reader", "learned", "the reader: learned or classical, as camera.dice_tray.reader")
	dice.AddCommand(read)
	return dice
}
