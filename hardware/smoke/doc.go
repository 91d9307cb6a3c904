// Package smoke holds the hardware smoke tests: they need a Raspberry Pi
// with the table's devices wired and a person at the table, so they carry
// the `hardware` build tag and never run in CI.
//
//	go test -tags hardware ./hardware/smoke -v -config /etc/sztab/table.yaml
//
// Flags: -config (a table config; its hardware section names the devices),
// -reader (default: the first reader), -wait (how long each test waits for
// the person at the table, 20s by default), -record DIR (write the SPI
// traffic of each reader to DIR/<reader>.txt in the format of
// hardware/testdata/nfc, to replace the model-made transcripts with real
// ones).
//
// TestReaders asks for a card on each reader and checks that it is seen
// once and removed once; TestKeypads asks for each key; TestOutputs lights
// the LEDs, beeps and shows 8888 / a line of text on the displays.
package smoke
