package skirmish

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/dice"
)

// Shooting ("Faza strzału"): the active player's units fire one after the
// other; a unit fires each of its weapons once per turn, every model that
// carries it, sees the target and did not lose its shot to a jump. Range is
// measured base to base between the closest models of the two units (the
// rulebook: "sprawdza, czy na linii ognia znajduje się wrogi model").

// coverFor decides the cover a target unit gets: it counts only when more
// than half of the unit's models are behind it ("ponad połowa oddziału musi
// znajdować się za przeszkodą"). When more than half is behind cover but not
// more than half behind heavy cover, the unit gets light cover: the rulebook
// does not cover mixed cover, and this is the reading that never gives more
// than the majority of the unit has.
func coverFor(alive int, in InCover) string {
	switch {
	case 2*in.Heavy > alive:
		return CoverHeavy
	case 2*(in.Heavy+in.Light) > alive:
		return CoverLight
	}
	return CoverNone
}

func (s *State) declareShot(a DeclareShot) ([]Event, error) {
	if s.Phase != PhaseShooting {
		return nil, rules.Reject("wrong_phase", "strzał tylko w fazie strzału (teraz: %[1]s)", "shooting only in the shooting phase (now: %[2]s)",
			s.Phase.Name().PL, s.Phase.Name().EN)
	}
	if s.Shot != nil {
		return nil, rules.Reject("shot_in_progress", "najpierw dokończ strzał %s", "finish the shot by %s first", s.Shot.Shooter)
	}
	shooter, err := s.ownUnit(a.Shooter)
	if err != nil {
		return nil, err
	}
	target := s.unit(a.Target)
	if target == nil || !target.Deployed {
		return nil, rules.Reject("unknown_unit", "nie ma na stole oddziału %q", "no unit %q on the table", a.Target)
	}
	switch {
	case target.Faction == shooter.Faction:
		return nil, rules.Reject("friendly_target", "%s: %s to własny oddział", "%s: %s is a friendly unit", shooter.Name, target.Name)
	case shooter.Alive() == 0:
		return nil, rules.Reject("no_models", "%s nie ma już modeli", "%s has no models left", shooter.Name)
	case target.Alive() == 0:
		return nil, rules.Reject("no_models", "%s nie ma już modeli", "%s has no models left", target.Name)
	}
	w, err := shooter.pickWeapon(a.Weapon)
	if err != nil {
		return nil, err
	}
	if slices.Contains(shooter.Fired, w.Name) {
		if err := s.waiver.Breach("already_shot", "%s (%s) już strzelał w tej turze", "%s (%s) has already fired this turn", shooter.Name, w.Name); err != nil {
			return nil, err
		}
	}
	for _, id := range a.NoLineOfFire {
		if m := shooter.model(id); m == nil {
			return nil, rules.Reject("bad_measurement", "%s nie ma modelu %q", "%s has no model %q", shooter.Name, id)
		}
	}
	var carriers, firing, jumpedOut []string
	for _, m := range shooter.Models {
		if m.Removed || m.Weapon != w.Name {
			continue
		}
		carriers = append(carriers, m.ID)
		switch {
		case m.Jumped && w.Jump == JumpMoveLoss && s.Options.MoveLoss != MoveLossHalf:
			jumpedOut = append(jumpedOut, m.ID)
		case slices.Contains(a.NoLineOfFire, m.ID):
		default:
			firing = append(firing, m.ID)
		}
	}
	if len(firing) == 0 {
		if len(jumpedOut) == len(carriers) {
			return nil, rules.Reject("jumped_cannot_fire", "%s: %s po skoku nie może strzelać (skok = strata ruchu)",
				"%s: %s cannot fire after jumping (skok = strata ruchu)", shooter.Name, w.Name)
		}
		return nil, rules.Reject("no_line_of_fire", "%s: żaden model z %s nie ma linii ognia do %s", "%s: no model with %s has a line of fire to %s",
			shooter.Name, w.Name, target.Name)
	}
	if a.InCover.Light < 0 || a.InCover.Heavy < 0 || a.InCover.Light+a.InCover.Heavy > target.Alive() {
		return nil, rules.Reject("bad_measurement", "za osłoną %d modeli, a oddział ma %d", "%d models in cover but the unit has %d",
			a.InCover.Light+a.InCover.Heavy, target.Alive())
	}
	unitCover, err := s.unitCover(shooter, target, a.InCover)
	if err != nil {
		return nil, err
	}
	sh := &Shot{
		Shooter: shooter.ID, Target: target.ID, Weapon: w.Name, Cover: unitCover,
		Firing: firing, WoundOn: w.Wound, D6Wounds: w.D6Wounds, SaveOn: target.Defence, Entered: []dice.Roll{},
	}
	if sh.Cover != CoverNone { // "+1 statystyki do obrony"
		sh.SaveOn = max(sh.SaveOn-1, 2)
	}
	var borderline bool
	var rangeText rules.Text
	if w.Template == "" {
		d, err := s.shotDistance(a, shooter, firing, target)
		if err != nil {
			return nil, err
		}
		sh.Distance = d
		switch judge(d, float64(w.Range)) {
		case outside:
			if err := s.waiver.Breach("out_of_range", "%[1]s: cel %[4]s, zasięg %[3]d", "%[1]s: target %[2]s kroki away, range %[3]d", w.Name, fmtMeasure(d), w.Range, plKroki(d)); err != nil {
				return nil, err
			}
		case tooClose:
			borderline = true
			rangeText = rules.Textf("%[1]s: cel %[4]s, zasięg %[3]d", "%[1]s: target %[2]s kroki, range %[3]d", w.Name, fmtMeasure(d), w.Range, plKroki(d))
		}
		sh.Attacks = len(firing) * w.ShotsPerModel(shooter.StationaryRounds)
		sh.HitOn = w.Hit
		if sh.Cover == CoverHeavy { // "ich statystyka celności spada o 1"
			sh.HitOn = min(sh.HitOn+1, 7)
		}
	} else {
		if err := s.checkMarkers(a.Markers, firing, target, w); err != nil {
			return nil, err
		}
		if a.Markers, err = s.settleMarkers(a.Markers, target); err != nil {
			return nil, err
		}
		sh.Template, sh.Markers, sh.Attacks = w.Template, a.Markers, len(a.Markers)
		if w.TargetDie {
			sh.TargetOn = w.TargetOn
		}
		for _, mk := range a.Markers {
			if mk.Distance == nil {
				continue
			}
			sh.Distance.Kroki = max(sh.Distance.Kroki, mk.Distance.Kroki)
			sh.Distance.Uncertainty = max(sh.Distance.Uncertainty, mk.Distance.Uncertainty)
			switch judge(*mk.Distance, float64(w.Range)) {
			case outside:
				if err := s.waiver.Breach("out_of_range", "%[1]s: znacznik %[4]s, zasięg %[3]d", "%[1]s: marker %[2]s kroki away, range %[3]d", w.Name, fmtMeasure(*mk.Distance), w.Range, plKroki(*mk.Distance)); err != nil {
					return nil, err
				}
			case tooClose:
				borderline = true
				rangeText = rules.Textf("%[1]s: znacznik %[4]s, zasięg %[3]d", "%[1]s: marker %[2]s kroki, range %[3]d", w.Name, fmtMeasure(*mk.Distance), w.Range, plKroki(*mk.Distance))
			}
		}
	}
	s.Shot = sh
	cover := coverNames[sh.Cover]
	how := rules.Textf("%[3]s, trafienie na %[2]d+", "%[4]s, hit on %[2]d+", sh.Attacks, sh.HitOn,
		plN(sh.Attacks, "kość", "kości", "kości"), enN(sh.Attacks, "die", "dice"))
	if sh.Template != "" {
		how = rules.Textf("znaczniki: %[1]d, trafieni: modele pod znacznikiem", "%[2]s, hit: the models under the marker", sh.Attacks, enN(sh.Attacks, "marker", "markers"))
	}
	reach := rules.Text{PL: plKroki(sh.Distance), EN: fmtMeasure(sh.Distance) + " kroki"}
	if sh.Template != "" && w.Range == 0 {
		reach = rules.Textf("zasięg: pomarańczowy znacznik", "reach: the orange marker")
	}
	evs := []Event{{
		Type: "shot_declared", Unit: shooter.ID, Target: target.ID, Models: firing,
		Text: rules.Text{
			PL: fmt.Sprintf("%s (%s) strzela, cel: %s, %s, osłona: %s, %s", shooter.Name, w.Name, target.Name, reach.PL, cover.PL, how.PL),
			EN: fmt.Sprintf("%s (%s) fires at %s: %s, cover: %s, %s", shooter.Name, w.Name, target.Name, reach.EN, cover.EN, how.EN),
		},
	}}
	if len(jumpedOut) > 0 {
		evs = append(evs, Event{Type: "jumped_no_shot", Models: jumpedOut,
			Text: rules.Textf("po skoku nie strzelają: %s", "not firing after a jump: %s", strings.Join(jumpedOut, ", "))})
	}
	if borderline {
		sh.Stage = StageRuling
		sh.Odds = s.shotOdds()
		return append(evs, Event{
			Type: EventTooCloseToCall, Unit: shooter.ID, Target: target.ID,
			Text: rules.Text{PL: rangeText.PL + " — za blisko granicy, by rozstrzygnąć pomiarem; rozstrzygnijcie",
				EN: rangeText.EN + " — too close to call by measurement; please rule"},
		}), nil
	}
	return append(evs, s.firstStage()...), nil
}

// pickWeapon is the weapon that fires: the one named, or the unit's only one.
func (u *Unit) pickWeapon(name string) (Weapon, error) {
	var carried []string
	for _, m := range u.Models {
		if !m.Removed && !slices.Contains(carried, m.Weapon) {
			carried = append(carried, m.Weapon)
		}
	}
	if name == "" {
		if len(carried) == 1 {
			w, _ := u.Weapon(carried[0])
			return w, nil
		}
		return Weapon{}, rules.Reject("choose_weapon", "%s ma kilka broni (%s): wybierz, która strzela", "%s carries several weapons (%s): choose which fires",
			u.Name, strings.Join(carried, ", "))
	}
	if !slices.Contains(carried, name) {
		return Weapon{}, rules.Reject("no_such_weapon", "%s nie ma %s (ma: %s)", "%s does not carry %s (it has: %s)", u.Name, name, strings.Join(carried, ", "))
	}
	w, _ := u.Weapon(name)
	return w, nil
}

// shotDistance is the measured distance, or the one the state's positions
// give when the action carries none.
func (s *State) shotDistance(a DeclareShot, shooter *Unit, firing []string, target *Unit) (Measure, error) {
	if a.Distance != nil {
		if a.Distance.Kroki < 0 || a.Distance.Uncertainty < 0 {
			return Measure{}, rules.Reject("bad_measurement", "błędny pomiar odległości %v", "bad distance measurement %v", *a.Distance)
		}
		return *a.Distance, nil
	}
	d, ok := unitGap(shooter, firing, target)
	if !ok {
		return Measure{}, rules.Reject("no_measurement", "brak pomiaru odległości %s–%s", "no distance measured between %s and %s", shooter.Name, target.Name)
	}
	return roundMeasure(d), nil
}

// checkMarkers: one marker per firing model at most ("1 strzał na model"),
// each covering living models of the target unit. Models of other units
// under a marker are not hit: the rulebook has fire open "do wrogiego
// modelu" and says nothing of templates striking bystanders.
func (s *State) checkMarkers(ms []Marker, firing []string, target *Unit, w Weapon) error {
	if len(ms) == 0 {
		return rules.Reject("no_marker", "%s: połóż pomarańczowy znacznik; trafia modele pod nim", "%s: place the orange marker; it hits the models under it", w.Name)
	}
	if len(ms) > len(firing) {
		return rules.Reject("bad_marker", "%[1]s: znaczniki: %[2]d, a strzela %[4]s (1 strzał na model)", "%[1]s: %[2]d markers but %[3]d models fire (one shot per model)",
			w.Name, len(ms), len(firing), plN(len(firing), "model", "modele", "modeli"))
	}
	for _, mk := range ms {
		seen := map[string]bool{}
		for _, id := range append(slices.Clone(mk.Models), mk.Unsure...) {
			m := target.model(id)
			if m == nil || m.Removed || seen[id] {
				return rules.Reject("bad_marker", "pod znacznikiem %q, którego nie ma w %s", "under the marker: %q, which is not in %s", id, target.Name)
			}
			seen[id] = true
		}
		if w.Range > 0 && mk.Distance == nil {
			return rules.Reject("no_measurement", "%s: brak pomiaru odległości do znacznika", "%s: no distance measured to the marker", w.Name)
		}
		if mk.Distance != nil && (mk.Distance.Kroki < 0 || mk.Distance.Uncertainty < 0) {
			return rules.Reject("bad_measurement", "błędny pomiar odległości %v", "bad distance measurement %v", *mk.Distance)
		}
	}
	return nil
}

var coverRank = map[string]int{CoverNone: 0, CoverLight: 1, CoverHeavy: 2}

// unitCover decides the target's cover from the counts the camera gives.
// When its most favourable reading (InCover.AtMost) gives the unit more
// cover than the sure one, each step up (light, then heavy) is too close to
// call and waits for a ruling: "yes" gives the cover, "no" stops there.
func (s *State) unitCover(shooter, target *Unit, in InCover) (string, error) {
	alive := target.Alive()
	low := coverFor(alive, in)
	am := in.AtMost
	if am == nil {
		return low, nil
	}
	if am.Light < 0 || am.Heavy < 0 || am.Light+am.Heavy > alive || am.Heavy < in.Heavy || am.Light+am.Heavy < in.Light+in.Heavy {
		return "", rules.Reject("bad_measurement", "osłona: najwyżej %d lekkiej i %d ciężkiej przy pewnych %d i %d, a oddział ma %d",
			"cover: at most %d light and %d heavy against %d and %d sure, and the unit has %d", am.Light, am.Heavy, in.Light, in.Heavy, alive)
	}
	high := coverFor(alive, InCover{Light: am.Light, Heavy: am.Heavy})
	cover := low
	for _, lvl := range []string{CoverLight, CoverHeavy} {
		if coverRank[lvl] <= coverRank[low] || coverRank[lvl] > coverRank[high] {
			continue
		}
		key := "cover:" + shooter.ID + ":" + target.ID + ":" + lvl
		yes, ok := s.ruled(key)
		if !ok {
			name := coverNames[lvl]
			return "", &needCall{Call{Key: key, Question: rules.Textf("czy ponad połowa oddziału %[1]s stoi za osłoną (%[3]s) od %[2]s? (kamera: za blisko, by rozstrzygnąć)",
				"is more than half of %[1]s behind %[4]s cover from %[2]s? (the camera: too close to call)", target.Name, shooter.Name, name.PL, name.EN)}}
		}
		if !yes {
			break
		}
		cover = lvl
	}
	return cover, nil
}

// settleMarkers puts the models the camera could not call under or out of
// each marker by the rulings, asking for the first one not ruled yet.
func (s *State) settleMarkers(ms []Marker, target *Unit) ([]Marker, error) {
	out := make([]Marker, len(ms))
	for i, mk := range ms {
		out[i] = Marker{Models: slices.Clone(mk.Models), Distance: mk.Distance}
		for _, id := range mk.Unsure {
			key := fmt.Sprintf("marker:%d:%s", i+1, id)
			yes, ok := s.ruled(key)
			if !ok {
				return nil, &needCall{Call{Key: key, Question: rules.Textf("czy %[1]s (%[2]s) stoi pod znacznikiem %[3]d? (kamera: za blisko krawędzi, by rozstrzygnąć)",
					"is %[1]s (%[2]s) under marker %[3]d? (the camera: too close to the edge to call)", id, target.Name, i+1)}}
			}
			if yes {
				out[i].Models = append(out[i].Models, id)
			}
		}
	}
	return out, nil
}

var coverNames = map[string]rules.Text{
	CoverNone:  {PL: "brak", EN: "none"},
	CoverLight: {PL: "lekka", EN: "light"},
	CoverHeavy: {PL: "ciężka", EN: "heavy"},
}

var stageNames = map[string]rules.Text{
	StageTarget: {PL: "kostka celu", EN: "target die"},
	StageHit:    {PL: "trafienie", EN: "to hit"},
	StageWound:  {PL: "rany", EN: "to wound"},
	StageDamage: {PL: "liczba ran (k6)", EN: "wounds (d6)"},
	StageSave:   {PL: "obrona", EN: "saves"},
}

// firstStage opens the first roll of a declared shot. A template without a
// target die needs no roll to hit: the marker has decided.
func (s *State) firstStage() []Event {
	sh := s.Shot
	switch {
	case sh.Template == "":
		return s.openStage(StageHit, sh.Attacks)
	case sh.TargetOn > 0:
		return s.openStage(StageTarget, len(sh.Markers))
	}
	for _, mk := range sh.Markers {
		sh.HitModels = append(sh.HitModels, mk.Models...)
	}
	sh.Hits = len(sh.HitModels)
	ev := Event{Type: "stage_resolved", Stage: "marker", Models: sh.HitModels,
		Text: rules.Textf("pod znacznikiem: %s", "under the marker: %s", strings.Join(sh.HitModels, ", "))}
	if sh.Hits == 0 {
		ev.Text = rules.Textf("pod znacznikiem nie ma modeli celu", "no model of the target under the marker")
	}
	return append([]Event{ev}, s.afterHits()...)
}

// afterHits opens the wound or damage roll, or ends a shot that hit nothing.
func (s *State) afterHits() []Event {
	sh := s.Shot
	switch {
	case sh.Hits == 0:
		return s.finishShot()
	case sh.D6Wounds:
		return s.openStage(StageDamage, sh.Hits)
	}
	return s.openStage(StageWound, sh.Hits)
}

func (s *State) openStage(stage string, need int) []Event {
	sh := s.Shot
	sh.Stage, sh.Need, sh.Entered = stage, need, []dice.Roll{}
	sh.Odds = s.shotOdds()
	name := stageNames[stage]
	th := s.threshold(stage)
	text := rules.Textf("rzuć %d k6: ", "roll %d d6: ", need)
	text.PL += name.PL
	text.EN += name.EN
	if th > 0 {
		text.PL += fmt.Sprintf(" na %d+", th)
		text.EN += fmt.Sprintf(" on %d+", th)
	}
	return []Event{{Type: "roll_needed", Unit: sh.Shooter, Target: sh.Target, Stage: stage, Need: need, Threshold: th, Text: text}}
}

func (s *State) threshold(stage string) int {
	switch stage {
	case StageTarget:
		return s.Shot.TargetOn
	case StageHit:
		return s.Shot.HitOn
	case StageWound:
		return s.Shot.WoundOn
	case StageSave:
		return s.Shot.SaveOn
	}
	return 0
}

func (s *State) enterDice(a Dice) ([]Event, error) {
	sh := s.Shot
	if sh == nil {
		return nil, rules.Reject("no_shot", "żaden strzał nie czeka na kości", "no shot is waiting for dice")
	}
	if sh.Stage == StageRuling {
		return nil, rules.Reject("awaiting_ruling", "pomiar czeka na rozstrzygnięcie", "the measurement is waiting for a ruling")
	}
	if len(a.Rolls) == 0 {
		return nil, rules.Reject("no_dice", "brak kości", "no dice given")
	}
	for _, r := range a.Rolls {
		if err := r.Validate(); err != nil {
			if r.Value < 1 || r.Value > 6 {
				return nil, rules.Reject("bad_die", "kość pokazuje %d: k6 ma ścianki 1–6", "a die showing %d: a d6 has faces 1–6", r.Value)
			}
			return nil, rules.Reject("bad_die", "kość bez znanego pochodzenia (%q)", "a die of unknown origin (%q)", r.Origin)
		}
	}
	if have := len(sh.Entered) + len(a.Rolls); have > sh.Need {
		return nil, rules.Reject("too_many_dice", "%s: potrzeba %d kości, podano %d", "%s: %d dice needed, %d given",
			sh.Stage, sh.Need-len(sh.Entered), len(a.Rolls))
	}
	sh.Entered = append(sh.Entered, a.Rolls...)
	evs := []Event{{
		Type: "dice_entered", Stage: sh.Stage, Need: sh.Need, Rolls: a.Rolls,
	}}
	name := stageNames[sh.Stage]
	evs[0].Text = rules.Textf(name.PL+": %v (%d z %d)", name.EN+": %v (%d of %d)", dice.Values(a.Rolls), len(sh.Entered), sh.Need)
	if len(sh.Entered) == sh.Need {
		evs = append(evs, s.resolveStage()...)
	}
	return evs, nil
}

func count(rolls []dice.Roll, atLeast int) int {
	n := 0
	for _, r := range rolls {
		if r.Value >= atLeast {
			n++
		}
	}
	return n
}

func (s *State) resolveStage() []Event {
	sh := s.Shot
	rolls := sh.Entered
	th := s.threshold(sh.Stage)
	ev := Event{Type: "stage_resolved", Stage: sh.Stage, Threshold: th, Rolls: rolls}
	var succ int
	switch sh.Stage {
	case StageTarget:
		sh.Rolls.Target = rolls
		for i, r := range rolls {
			if r.Value >= th {
				succ++
				sh.HitModels = append(sh.HitModels, sh.Markers[i].Models...)
			}
		}
		sh.Hits = len(sh.HitModels)
		ev.Models = sh.HitModels
		ev.Text = rules.Textf("kostka celu na %[1]d+: %[2]v → na celu: %[3]d, trafieni: %[4]s", "target die on %[1]d+: %[2]v → %[5]s on target, hit: %[4]s",
			th, dice.Values(rolls), succ, strings.Join(sh.HitModels, ", "), enN(succ, "marker", "markers"))
	case StageHit:
		sh.Rolls.Hit = rolls
		succ = count(rolls, th)
		sh.Hits = succ
		ev.Text = rules.Textf("trafienie na %[1]d+: %[2]v → %[3]s", "to hit on %[1]d+: %[2]v → %[4]s", th, dice.Values(rolls),
			plN(succ, "trafienie", "trafienia", "trafień"), enN(succ, "hit", "hits"))
	case StageWound:
		sh.Rolls.Wound = rolls
		sh.Packets = nil
		for i, r := range rolls {
			if r.Value >= th {
				succ++
				sh.Packets = append(sh.Packets, 1)
				if sh.Template != "" {
					sh.PacketModels = append(sh.PacketModels, sh.HitModels[i])
				}
			}
		}
		ev.Text = rules.Textf("rany na %[1]d+: %[2]v → %[3]s", "to wound on %[1]d+: %[2]v → %[4]s", th, dice.Values(rolls),
			plN(succ, "rana", "rany", "ran"), enN(succ, "wound", "wounds"))
	case StageDamage:
		sh.Rolls.Damage = rolls
		sh.Packets = dice.Values(rolls)
		if sh.Template != "" {
			sh.PacketModels = slices.Clone(sh.HitModels)
		}
		for _, p := range sh.Packets {
			succ += p
		}
		ev.Text = rules.Textf("k6 ran za każde trafienie: %[1]v → %[2]s", "d6 wounds per hit: %[1]v → %[3]s", dice.Values(rolls),
			plN(succ, "rana", "rany", "ran"), enN(succ, "wound", "wounds"))
	case StageSave:
		sh.Rolls.Save = rolls
		succ = count(rolls, th)
		ev.Text = rules.Textf("obrona na %d+: %v → obronione: %d", "saves on %d+: %v → %d saved", th, dice.Values(rolls), succ)
	}
	ev.Successes = &succ
	evs := []Event{ev}
	switch sh.Stage {
	case StageTarget, StageHit:
		return append(evs, s.afterHits()...)
	case StageWound, StageDamage:
		total := 0
		for _, p := range sh.Packets {
			total += p
		}
		if total == 0 || sh.SaveOn >= 7 {
			return append(evs, s.finishShot()...)
		}
		return append(evs, s.openStage(StageSave, total)...)
	}
	return append(evs, s.finishShot()...)
}

// finishShot applies the unsaved wounds. Each wounding hit is a packet; the
// saves are rolled per wound, in packet order. All unsaved wounds of one
// packet go to one model and what that model cannot take is lost: the
// rulebook gives d6 wounds per Panzerschreck, Panzerfaust or grenade hit
// (SPIS BRONI) without saying they spread, and a single hit felling a whole
// squad would not be one shot. A template's packet goes to the model the
// marker covered; an ordinary shot's to the model the allocation picks.
func (s *State) finishShot() []Event {
	sh := s.Shot
	target := s.unit(sh.Target)
	shooter := s.unit(sh.Shooter)
	res := &ShotResult{
		Shooter: sh.Shooter, Target: sh.Target, Weapon: sh.Weapon, Cover: sh.Cover,
		Attacks: sh.Attacks, Hits: sh.Hits, Wounded: []string{}, Killed: []string{}, HitModels: sh.HitModels,
	}
	res.Rolls = slices.Concat(sh.Rolls.Target, sh.Rolls.Hit, sh.Rolls.Wound, sh.Rolls.Damage, sh.Rolls.Save)
	if res.Rolls == nil {
		res.Rolls = []dice.Roll{}
	}
	aliveBefore := target.Alive()
	saves := sh.Rolls.Save
	hurt := map[string]bool{}
	for i, p := range sh.Packets {
		res.Wounds += p
		unsaved := p
		if sh.SaveOn < 7 {
			unsaved = p - count(saves[:p], sh.SaveOn)
			saves = saves[p:]
		}
		res.Unsaved += unsaved
		if unsaved == 0 {
			continue
		}
		var m *Model
		if sh.Template != "" {
			if m = target.model(sh.PacketModels[i]); m != nil && m.Removed {
				m = nil
			}
		} else {
			m = pickModel(target, s.Options.Allocation)
		}
		if m != nil {
			m.Wounds += min(unsaved, m.Remaining())
			hurt[m.ID] = true
			if m.Remaining() == 0 {
				m.Removed, m.At, m.From = true, nil, nil
			}
		}
	}
	res.Saved = res.Wounds - res.Unsaved
	killedCost := 0
	for _, m := range target.Models {
		switch {
		case !hurt[m.ID]:
		case m.Removed:
			res.Killed = append(res.Killed, m.ID)
			killedCost += m.Cost
		default:
			res.Wounded = append(res.Wounded, m.ID)
		}
	}
	shooter.Fired = append(shooter.Fired, sh.Weapon)
	if n := len(res.Killed); n > 0 {
		ps := s.seatState(shooter.Owner)
		if ps.Tally.ByClass == nil {
			ps.Tally.ByClass = map[string]int{}
		}
		ps.Tally.Kills += n
		w, _ := shooter.Weapon(sh.Weapon)
		ps.Tally.ByClass[w.Class] += n
		if w.Captured {
			ps.Tally.ByClass["captured"] += n
		}
		if aliveBefore > 0 && target.Alive() == 0 {
			ps.Tally.UnitsDestroyed++
		}
		sd := s.side(shooter.Faction)
		sd.Kills += n
		sd.KillPoints += killedCost
	}
	s.Shot, s.LastShot = nil, res
	evs := []Event{{
		Type: "shot_resolved", Unit: res.Shooter, Target: res.Target, Shot: res,
		Text: rules.Textf("%[1]s → %[2]s: %[9]s, %[10]s, obronione: %[5]d, nieobronione: %[6]d; ranni: %[7]d, zabici: %[8]d",
			"%[1]s → %[2]s: %[11]s, %[12]s, %[5]d saved, %[6]d unsaved: %[7]d wounded, %[8]d killed",
			shooter.Name, target.Name, res.Hits, res.Wounds, res.Saved, res.Unsaved, len(res.Wounded), len(res.Killed),
			plN(res.Hits, "trafienie", "trafienia", "trafień"), plN(res.Wounds, "rana", "rany", "ran"),
			enN(res.Hits, "hit", "hits"), enN(res.Wounds, "wound", "wounds")),
	}}
	if len(res.Killed) > 0 {
		evs = append(evs, Event{
			Type: "remove_models", Unit: target.ID, Models: res.Killed,
			Text: rules.Textf("zdejmij ze stołu: %s", "take off the table: %s", strings.Join(res.Killed, ", ")),
		})
	}
	if aliveBefore > 0 && target.Alive() == 0 {
		evs = append(evs, Event{Type: "unit_destroyed", Unit: target.ID,
			Text: rules.Textf("oddział %s rozbity: nie ma już modeli", "%s is wiped out: no models left", target.Name)})
	}
	return evs
}

// pickModel chooses who takes the next packet: the living model with the
// most lives left under Spread, the fewest under Focus; ties go to the first
// in the unit's order, so the choice is reproducible.
func pickModel(u *Unit, policy Allocation) *Model {
	var best *Model
	for i := range u.Models {
		m := &u.Models[i]
		if m.Removed {
			continue
		}
		if best == nil ||
			(policy == Focus && m.Remaining() < best.Remaining()) ||
			(policy != Focus && m.Remaining() > best.Remaining()) {
			best = m
		}
	}
	return best
}

func (s *State) undoDie() ([]Event, error) {
	sh := s.Shot
	if sh == nil || sh.Stage == StageRuling || len(sh.Entered) == 0 {
		return nil, rules.Reject("nothing_to_undo", "nie ma kości do cofnięcia", "no die to take back")
	}
	last := sh.Entered[len(sh.Entered)-1]
	sh.Entered = sh.Entered[:len(sh.Entered)-1]
	return []Event{{Type: "die_undone", Stage: sh.Stage, Rolls: []dice.Roll{last},
		Text: rules.Textf("cofnięto kość %d", "took back a %d", last.Value)}}, nil
}

func (s *State) ruling(a Ruling) ([]Event, error) {
	if s.Call != nil {
		return s.ruleOnCall(a)
	}
	sh := s.Shot
	if sh == nil || sh.Stage != StageRuling {
		return nil, rules.Reject("no_ruling_needed", "nic nie czeka na rozstrzygnięcie", "nothing is waiting for a ruling")
	}
	if !a.InRange {
		s.Shot = nil
		return []Event{{Type: "shot_cancelled", Unit: sh.Shooter, Target: sh.Target,
			Text: rules.Textf("rozstrzygnięcie (%s): cel poza zasięgiem, strzał odwołany", "ruling (%s): target out of range, shot called off", a.By)}}, nil
	}
	evs := []Event{{Type: "ruled_in_range", Unit: sh.Shooter, Target: sh.Target,
		Text: rules.Textf("rozstrzygnięcie (%s): cel w zasięgu", "ruling (%s): target in range", a.By)}}
	return append(evs, s.firstStage()...), nil
}

// ruleOnCall records a ruling and applies the action that waited for it.
// If the action is still refused, the ruling stands and the action is not
// taken; if it needs another ruling, it waits again.
func (s *State) ruleOnCall(a Ruling) ([]Event, error) {
	call := s.Call
	s.Call = nil
	s.Rulings = append(s.Rulings, Ruled{Key: call.Key, InRange: a.InRange, By: a.By})
	answer := rules.Textf("nie", "no")
	if a.InRange {
		answer = rules.Textf("tak", "yes")
	}
	evs := []Event{{Type: "ruled", Call: call,
		Text: rules.Textf("rozstrzygnięcie (%[1]s): %[2]s — %[3]s", "ruling (%[1]s): %[4]s — %[5]s", a.By, call.Question.PL, answer.PL, call.Question.EN, answer.EN)}}
	pending, err := DecodeAction(call.Action)
	if err != nil {
		return nil, err
	}
	base := s.clone()
	more, err := s.apply(pending)
	if nc, ok := err.(*needCall); ok {
		*s = base
		nc.call.Action = call.Action
		s.Call = &nc.call
		return append(evs, callEvent(&nc.call)), nil
	}
	if err != nil {
		rej, ok := rules.AsRejection(err)
		if !ok {
			return nil, err
		}
		*s = base
		s.Rulings = nil
		return append(evs, Event{Type: "ruled_out", Text: rules.Textf("%[1]s nie wchodzi: %[2]s", "%[3]s not taken: %[4]s", pending.Type(), rej.Reason.PL, pending.Type(), rej.Reason.EN)}), nil
	}
	if _, ok := pending.(Move); ok && s.Selection != nil {
		// The move used the phase's jumps.
		s.Selection.Jumps, s.Selection.NotJumped = nil, nil
	}
	s.Rulings = nil
	return append(evs, more...), nil
}

func (s *State) cancelShot() ([]Event, error) {
	sh := s.Shot
	if sh == nil {
		return nil, rules.Reject("no_shot", "nie ma strzału do odwołania", "no shot to call off")
	}
	if sh.Rolls.Target != nil || sh.Rolls.Hit != nil || sh.Rolls.Wound != nil || sh.Rolls.Damage != nil {
		return nil, rules.Reject("shot_under_way", "kości już rozstrzygnęły trafienia; strzału nie można odwołać", "hits are already rolled; the shot cannot be called off")
	}
	s.Shot = nil
	return []Event{{Type: "shot_cancelled", Unit: sh.Shooter, Target: sh.Target,
		Text: rules.Textf("strzał odwołany", "shot called off")}}, nil
}
