package companion

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// JournalRecovery is what OpenJournal found of the last run.
//
// SQLite deletes a journal's write-ahead log when the journal is closed, so
// a log found at open (WALBytes > 0) means the last run did not close it:
// a crash, a kill, a power cut. SQLite then replays the log's whole
// transactions and ignores the rest, silently; OpenJournal reads the log
// first, the way SQLite's recovery does, to say what was kept and what not.
// With synchronous=FULL an entry is acknowledged only once its transaction
// is in the log on disk, so what is dropped was never acknowledged.
type JournalRecovery struct {
	// WALBytes is the size of the write-ahead log found (0: clean stop).
	WALBytes int64
	// Frames is how many of its frames belong to whole transactions, the
	// ones SQLite replays.
	Frames int
	// Ignored is how many bytes after those SQLite ignores.
	Ignored int64
	// Torn says the ignored bytes hold an unfinished write: a frame cut
	// short or not all on disk, or a transaction without its commit. (Whole
	// frames of an earlier generation of the log, left behind when SQLite
	// restarted it after a checkpoint, are ignored too but are not torn.)
	Torn bool
	// Entries and LastSeq are what the journal holds once opened.
	Entries, LastSeq int64
}

// SQLite's write-ahead log format (https://sqlite.org/fileformat2.html#walformat).
const (
	walHeaderSize      = 32
	walFrameHeaderSize = 24
	walMagic           = 0x377f0682 // | 1: checksums in big-endian words
	walVersion         = 3007000
)

// scanWAL reads the write-ahead log at name as SQLite's recovery would.
func scanWAL(name string) (JournalRecovery, error) {
	var r JournalRecovery
	data, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return r, fmt.Errorf("write-ahead log: %w", err)
	}
	r.WALBytes = int64(len(data))
	if len(data) == 0 {
		return r, nil
	}
	// Until a whole transaction is found, everything is ignored; a log
	// whose header is not whole was being started when the run stopped.
	r.Ignored, r.Torn = r.WALBytes, true
	if len(data) < walHeaderSize {
		return r, nil
	}
	hdr := data[:walHeaderSize]
	magic := binary.BigEndian.Uint32(hdr[0:])
	pageSize := binary.BigEndian.Uint32(hdr[8:])
	if magic&^1 != walMagic || binary.BigEndian.Uint32(hdr[4:]) != walVersion ||
		pageSize < 512 || pageSize > 65536 || pageSize&(pageSize-1) != 0 {
		return r, nil
	}
	var order binary.ByteOrder = binary.LittleEndian
	if magic&1 == 1 {
		order = binary.BigEndian
	}
	s1, s2 := walChecksum(order, hdr[:24], 0, 0)
	if s1 != binary.BigEndian.Uint32(hdr[24:]) || s2 != binary.BigEndian.Uint32(hdr[28:]) {
		return r, nil
	}
	salts := hdr[16:24]
	frameSize := walFrameHeaderSize + int(pageSize)
	end, frames, pending := walHeaderSize, 0, 0
	off := walHeaderSize
	for ; off+frameSize <= len(data); off += frameSize {
		f := data[off : off+frameSize]
		if !bytes.Equal(f[8:16], salts) {
			break
		}
		s1, s2 = walChecksum(order, f[:8], s1, s2)
		s1, s2 = walChecksum(order, f[walFrameHeaderSize:], s1, s2)
		if binary.BigEndian.Uint32(f[0:]) == 0 || s1 != binary.BigEndian.Uint32(f[16:]) || s2 != binary.BigEndian.Uint32(f[20:]) {
			pending = -1 // a frame of this log, not all of it on disk
			break
		}
		pending++
		if binary.BigEndian.Uint32(f[4:]) != 0 { // a commit frame
			frames += pending
			pending = 0
			end = off + frameSize
		}
	}
	r.Frames = frames
	r.Ignored = int64(len(data) - end)
	// Torn: frames without their commit, a frame that fails its checksum,
	// or a frame cut short where the scan stopped.
	partial := off < len(data) && off+frameSize > len(data)
	r.Torn = pending != 0 || partial
	return r, nil
}

// walChecksum is SQLite's WAL checksum of b (a multiple of 8 bytes) from s1, s2.
func walChecksum(order binary.ByteOrder, b []byte, s1, s2 uint32) (uint32, uint32) {
	for i := 0; i+8 <= len(b); i += 8 {
		s1 += order.Uint32(b[i:]) + s2
		s2 += order.Uint32(b[i+4:]) + s1
	}
	return s1, s2
}
