package mali

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
)

// TestRandomPlay plays whole games of both variants for 2–4 players with
// the bot and checks the invariants after every action: no courier on the
// soldier's field, on a blocked road or in a fallen district; Apply leaves
// its input untouched; each game ends; and replaying the same actions gives
// byte-identical JSON.
func TestRandomPlay(t *testing.T) {
	cat := defaultCat(t)
	seeds := 6
	if testing.Short() {
		seeds = 2
	}
	ended := map[string]int{}
	for _, variant := range []string{Basic, Extended} {
		for n := 2; n <= 4; n++ {
			for seed := 1; seed <= seeds; seed++ {
				name := fmt.Sprintf("%s-%dp-%d", variant, n, seed)
				t.Run(name, func(t *testing.T) {
					setup := Setup{Variant: variant, Starter: 1}
					if seed%2 == 0 {
						// Short decks: games that reach scoring.
						setup.Options = Options{DeckSize: 3, ExtendedAbove: 2}
					}
					for i := 0; i < n; i++ {
						setup.Players = append(setup.Players, PlayerSetup{Seat: i + 1, Colour: Colours[i]})
					}
					check := func(before State, a Action, after State) {
						b1, _ := json.Marshal(before)
						if _, _, err := Apply(before, a); err != nil {
							t.Fatalf("%s refused on replay: %v", a.Type(), err)
						}
						if b2, _ := json.Marshal(before); !bytes.Equal(b1, b2) {
							t.Fatalf("Apply(%s) changed its input state", a.Type())
						}
						for _, c := range after.Couriers {
							// A courier waiting for its owner's choice of a safe
							// field is still where it stood.
							if !c.OnMap() || slices.Contains(after.Displace, c.ID) || after.Phase == PhaseOver {
								continue
							}
							if after.Soldier != "" && c.At == after.Soldier {
								t.Fatalf("after %s: %s on the soldier's field %s", a.Type(), c.ID, c.At)
							}
							if after.onBlockedRoad(c.At) {
								t.Fatalf("after %s: %s on blocked road field %s", a.Type(), c.ID, c.At)
							}
							if after.fallen(after.cat.DistrictOf[c.At]) {
								t.Fatalf("after %s: %s in a fallen district at %s", a.Type(), c.ID, c.At)
							}
						}
					}
					acts, final, err := playBot(cat, setup, uint64(seed), 20000, check)
					if err != nil {
						t.Fatalf("after %d actions: %v", len(acts), err)
					}
					if final.Phase != PhaseOver {
						t.Fatalf("game did not end in %d actions (round %d, waiting %+v)", len(acts), final.Round, final.Pending)
					}
					if final.Result.Defeat {
						ended["defeat"]++
					} else {
						ended["scored"]++
					}
					var s State
					for _, a := range acts {
						s, _, err = Apply(s, a)
						if err != nil {
							t.Fatal(err)
						}
					}
					j1, _ := json.Marshal(final)
					j2, _ := json.Marshal(s)
					if !bytes.Equal(j1, j2) {
						t.Fatal("replay differs")
					}
					// Through the journal's codec as well.
					s = State{}
					for _, a := range acts {
						b, err := EncodeAction(a)
						if err != nil {
							t.Fatal(err)
						}
						d, err := DecodeAction(b)
						if err != nil {
							t.Fatal(err)
						}
						if s, _, err = Apply(s, d); err != nil {
							t.Fatal(err)
						}
					}
					if j3, _ := json.Marshal(s); !bytes.Equal(j1, j3) {
						t.Fatal("replay through the codec differs")
					}
				})
			}
		}
	}
	t.Logf("endings: %v", ended)
	if ended["scored"] == 0 || ended["defeat"] == 0 {
		t.Errorf("endings %v: want both scored games and defeats", ended)
	}
}

func asRejection(err error) (string, bool) {
	if r, ok := rulesAsRejection(err); ok {
		return r, true
	}
	return "", false
}
