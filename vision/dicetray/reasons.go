package dicetray

// Why a die is unreadable (Die.Unreadable): the English text, which the
// JSON of `sztab dice read` carries, and its Polish for the table's
// notices (Polish).
const (
	reasonOutline  = "cocked or stacked: the outline is not one flat die"
	reasonSlant    = "cocked: the face is seen at a slant"
	reasonLayout   = "the pips form no face"
	reasonNoPips   = "no pips seen"
	reasonEdge     = "partly outside the frame"
	reasonTouching = "touching another die"
	reasonGlare    = "glare on the face"
	reasonUnsure   = "the face is not clear"
)

var polish = map[string]string{
	reasonOutline:  "przekrzywiona albo na innej kości: zarys to nie jedna płaska kość",
	reasonSlant:    "przekrzywiona: ściankę widać pod kątem",
	reasonLayout:   "oczka nie układają się w żadną ściankę",
	reasonNoPips:   "nie widać oczek",
	reasonEdge:     "częściowo poza kadrem",
	reasonTouching: "dotyka innej kości",
	reasonGlare:    "odblask na ściance",
	reasonUnsure:   "ścianka jest niewyraźna",
	"white":        "biała",
	"black":        "czarna",
	"red":          "czerwona",
	"orange":       "pomarańczowa",
	"yellow":       "żółta",
	"green":        "zielona",
	"blue":         "niebieska",
	"purple":       "fioletowa",
}

// Polish is the Polish of a reason a die is unreadable (Die.Unreadable)
// or of a die's colour (Die.Colour); the English itself if it has none.
func Polish(en string) string {
	if pl, ok := polish[en]; ok {
		return pl
	}
	return en
}
