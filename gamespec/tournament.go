package gamespec

// Tournament is what a game's tournament uses unless the organiser's file
// says otherwise, and why. The rulebooks say nothing of tournaments: these
// are the game's choices, each a key of the tournament file
// (companion/tournament) an organiser may override. A game without Seats
// cannot be played at a tournament.
type Tournament struct {
	// Seats is the players a table; RoundMinutes the round clock.
	Seats, RoundMinutes int
	Points              Points
	// TieBreaks are applied in order after the points (TieBreakNames).
	TieBreaks []string
	// Why is the reason for these choices, in a line.
	Why string
}

// Points is what a game is worth in a tournament's standings: Win/Draw/Loss
// points by the seat's outcome (Mode "wdl", the default), or the game's
// own score (Mode "vp": victory points, medals) summed.
type Points struct {
	Mode string  `yaml:"mode" json:"mode"`
	Win  float64 `yaml:"win" json:"win"`
	Draw float64 `yaml:"draw" json:"draw"`
	Loss float64 `yaml:"loss" json:"loss"`
}

// The points modes.
const (
	ModeWDL = "wdl"
	ModeVP  = "vp"
)

// The tie-breaks, after the points, higher first.
const (
	// TieScore is the summed game score (victory points, medals).
	TieScore = "score"
	// TieSOS is Buchholz: the sum of the opponents' points (every other
	// player at the table, for tables of more seats).
	TieSOS = "sos"
	// TieWins is the number of games won (a bye counted as configured).
	TieWins = "wins"
	// TieHeadToHead is the points the tied players took in games among
	// themselves only (all of a group tied so far; 0 if they never met).
	TieHeadToHead = "head-to-head"
)

// TieBreakNames are the tie-breaks a tournament may list.
var TieBreakNames = []string{TieScore, TieSOS, TieWins, TieHeadToHead}
