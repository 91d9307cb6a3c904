package main

import "github.com/spf13/cobra"

func newBoxEnrolCmd() *cobra.Command { return &cobra.Command{Use: "enrol", Hidden: true} }
