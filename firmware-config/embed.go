// Package firmwareconfig carries the files installed on a table that the
// binary needs to run without them on disk: the demo session.
package firmwareconfig

import "embed"

// Demo is the demo table: config, tag registry and the simulated session.
//
//go:embed demo/*
var Demo embed.FS
