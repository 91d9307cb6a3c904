package companion

import (
	"github.com/sztab/sztab/gamespec"
)

// The game contract lives in package game, which imports nothing of the
// daemon; these aliases keep the daemon's older names working.
type (
	Action       = gamespec.Action
	Input        = gamespec.Input
	Sender       = gamespec.Sender
	Notice       = gamespec.Notice
	Game         = gamespec.Game
	Summarizer   = gamespec.Summarizer
	Scorer       = gamespec.Scorer
	LegalLister  = gamespec.LegalLister
	Viewer       = gamespec.Viewer
	Role         = gamespec.Role
	DiceCarrier  = gamespec.DiceCarrier
	Concealer    = gamespec.Concealer
	ActionTeller = gamespec.ActionTeller
	SeatLister   = gamespec.SeatLister
	Headliner    = gamespec.Headliner
	SampleDataer = gamespec.SampleDataer
	TurnTeller   = gamespec.TurnTeller
	ReaderNamer  = gamespec.ReaderNamer
	Allower      = gamespec.Allower
	Desyncer     = gamespec.Desyncer
	Cataloguer   = gamespec.Cataloguer
	Outcomer     = gamespec.Outcomer
	ScoredSeat   = gamespec.ScoredSeat
	Tag          = gamespec.Tag
	CameraDie    = gamespec.CameraDie
	GameSpec     = gamespec.GameSpec
	Games        = gamespec.Games
	Card         = gamespec.Card
	Script       = gamespec.Script
	ConfigError  = gamespec.ConfigError
	TableConfig  = gamespec.TableConfig

	ScriptStopped = gamespec.ScriptStopped
	// Adapter is gamespec.Adapter: the part of a Game that every engine shares.
	Adapter[S, E any] = gamespec.Adapter[S, E]
)

const (
	RolePublic  = gamespec.RolePublic
	RolePlayer  = gamespec.RolePlayer
	RoleReferee = gamespec.RoleReferee
)

// Public is the spectators' view.
var Public = gamespec.Public

// SampleDataText is what the screens show of a game on sample data.
var SampleDataText = gamespec.SampleDataText

// ErrCannotAllow: the game's engine lets no breach stand.
var ErrCannotAllow = gamespec.ErrCannotAllow
