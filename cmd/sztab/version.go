package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/wire"
)

func newVersionCmd() *cobra.Command {
	var frame string
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version, the journal schema and the wire contract's version",
		RunE: func(cmd *cobra.Command, _ []string) error {
			printVersion(cmd.OutOrStdout())
			if frame == "" {
				return nil
			}
			w, h, err := readFrame(frame)
			if err != nil {
				return fmt.Errorf("--frame %s: %w", frame, err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "klatka / frame: %s %dx%d\n", frame, w, h)
			return nil
		},
	}
	cmd.Flags().StringVar(&frame, "frame", "", "also read this image through the camera's OpenCV and print its size (checks an installed package's camera)")
	return cmd
}

// printVersion writes what an upgrade is judged by: the release, the
// journal schema it writes and the MQTT contract it speaks.
func printVersion(w io.Writer) {
	fmt.Fprintf(w, "sztab %s\n", companion.Version)
	fmt.Fprintf(w, "schemat dziennika / journal schema: %s\n", companion.JournalSchema)
	fmt.Fprintf(w, "protokół MQTT / wire contract: %s (%s)\n", wire.Version, wire.Root)
	fmt.Fprintf(w, "OpenCV: %s\n", openCVVersion())
}
