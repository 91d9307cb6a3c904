package mali

// Options are the table's answers to the questions the rulebook leaves
// open (see AMBIGUITIES.md). The zero value is our reading of the
// rulebook; every field is a departure a table may choose.
type Options struct {
	// DeckSize replaces the rulebook's deck: in the basic variant the
	// number of order cards (rulebook 20/16/12 for 4/3/2 players), in the
	// extended one the cards under the Victory card (12/18/24). 0: the
	// rulebook. A short game for a demo or a test.
	DeckSize int `json:"deck_size,omitempty"`
	// ExtendedAbove is the number of order cards over the Victory card in
	// the extended variant; 0: all the others (42 minus DeckSize).
	ExtendedAbove int `json:"extended_above,omitempty"`
	// SoldierPath chooses among several shortest paths of the soldier:
	// "" (map order: the first field in the map file's order, shown before
	// the roll) or "starter" (the round-starter picks his next field at
	// each fork).
	SoldierPath string `json:"soldier_path,omitempty"`
	// SoldierAvoidsBlocked keeps the soldier off blocked roads (by default
	// he uses them: they are held by his own army).
	SoldierAvoidsBlocked bool `json:"soldier_avoids_blocked,omitempty"`
	// RedMoveNoPickUp forbids picking up or dropping orders during the
	// red die's extra move (by default it is a move like any other).
	RedMoveNoPickUp bool `json:"red_move_no_pick_up,omitempty"`
	// HomeBonusNeedsReturn says which couriers standing on a start object
	// at the end earn the return-home bonus. Unset (our reading) or true:
	// only those that left their start object at some time — the rulebook
	// rewards couriers that "wrócili", a "szczęśliwy powrót". False: every
	// courier on a start object, moved or not (the reading before #31).
	HomeBonusNeedsReturn *bool `json:"home_bonus_needs_return,omitempty"`
	// NoForcedDelivery stops a courier pushed off a blocked road or out of
	// a fallen district onto its order's target from delivering it (by
	// default it delivers: it stands in the target).
	NoForcedDelivery bool `json:"no_forced_delivery,omitempty"`
	// TokenLimitExtended applies the basic variant's "fourth German token
	// is a defeat" to small tokens in the extended variant too (by default
	// only the third fallen district ends it there).
	TokenLimitExtended bool `json:"token_limit_extended,omitempty"`
	// NoDrawAfterVictory stops the extended variant's immediate draws
	// after a missed order once the Victory card is on the track.
	NoDrawAfterVictory bool `json:"no_draw_after_victory,omitempty"`
}

// homeBonusNeedsReturn is HomeBonusNeedsReturn, unset meaning true.
func (o Options) homeBonusNeedsReturn() bool {
	return o.HomeBonusNeedsReturn == nil || *o.HomeBonusNeedsReturn
}
