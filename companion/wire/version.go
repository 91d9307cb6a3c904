package wire

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sztab/sztab/rules"
)

// AnyVersion matches one kind of message of a venue's tables under every
// version of the contract (sztab/+/{venue}/+/{suffix}): what a hub or a
// table listens on besides its own contract, to say why it cannot read a
// newer one instead of hearing nothing.
func AnyVersion(venue, table, suffix string) string {
	return "sztab/+/" + venue + "/" + table + "/" + suffix
}

// ErrOtherVersion is a message under a contract this build does not
// speak: it says which one the message is and which one is needed.
type ErrOtherVersion struct {
	Topic string
	// Version is the message's contract ("v2").
	Version string
}

func (e *ErrOtherVersion) Error() string { return "wire: " + e.English() }

// English is the error in English without the package's prefix, for the
// screens.
func (e *ErrOtherVersion) English() string {
	return fmt.Sprintf("%s is in the wire contract %s; this sztab speaks %s: a sztab release that speaks %s is needed to read it (sztab version says which one a table or hub speaks)",
		clipText(e.Topic), clipText(e.Version), Version, clipText(e.Version))
}

// Polish is the error in Polish, for the screens.
func (e *ErrOtherVersion) Polish() string {
	return fmt.Sprintf("wiadomość %s jest w protokole %s; ten sztab zna %s: potrzebne wydanie sztab, które zna %s", clipText(e.Topic), clipText(e.Version), Version, clipText(e.Version))
}

// Text is the error in Polish and English, for the screens.
func (e *ErrOtherVersion) Text() rules.Text { return rules.Text{PL: e.Polish(), EN: e.English()} }

// CheckVersion says whether topic is under this build's contract: nil for
// sztab/v1/…, an *ErrOtherVersion for another version (sztab/v2/…), and
// an error saying so for anything that is not a Sztab topic at all.
func CheckVersion(topic string) error {
	rest, ok := strings.CutPrefix(topic, "sztab/")
	if !ok {
		return fmt.Errorf("wire: %q is not a Sztab topic (want %s…)", clipText(topic), Root)
	}
	if strings.HasPrefix(topic, Root) {
		return nil
	}
	v, _, slash := strings.Cut(rest, "/")
	n, ok := strings.CutPrefix(v, "v")
	if _, err := strconv.ParseUint(n, 10, 16); !slash || v == Version || !ok || err != nil || n[0] == '0' {
		return fmt.Errorf("wire: %q: %q is not a contract version (want %s…)", clipText(topic), clipText(v), Root)
	}
	return &ErrOtherVersion{Topic: topic, Version: v}
}
