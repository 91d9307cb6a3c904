package mali

import (
	"fmt"
	"strings"

	"github.com/sztab/sztab/rules"
)

var colourWords = map[string]rules.Text{
	ColourRed: {PL: "czerwony", EN: "red"}, ColourGreen: {PL: "zielony", EN: "green"},
	ColourOrange: {PL: "pomarańczowy", EN: "orange"}, ColourPurple: {PL: "fioletowy", EN: "purple"},
}

// CourierName is a courier as the players call it: its colour and number
// ("czerwony 2", "red 2"), never its id.
func CourierName(c Courier) rules.Text {
	n := c.ID[strings.LastIndex(c.ID, "-")+1:]
	w := colourWords[c.Colour]
	return rules.Text{PL: w.PL + " " + n, EN: w.EN + " " + n}
}

// courierName is the courier id's name in s.
func (s State) courierName(id string) rules.Text {
	if c, ok := s.Courier(id); ok {
		return CourierName(c)
	}
	return rules.Text{PL: "harcerz", EN: "a courier"}
}

// courierNames are the couriers' names, comma-separated.
func (s State) courierNames(ids []string) rules.Text {
	var pl, en []string
	for _, id := range ids {
		n := s.courierName(id)
		pl, en = append(pl, n.PL), append(en, n.EN)
	}
	return rules.Text{PL: strings.Join(pl, ", "), EN: strings.Join(en, ", ")}
}

// orderName is an order card as printed: where from and where to
// ("PAST-a → SGGW"), or the Victory card.
func (s State) orderName(id string) rules.Text {
	if o, ok := s.cat.Orders[id]; ok {
		name := s.cat.Objects[o.From].Name + " → " + s.cat.Objects[o.To].Name
		return rules.Text{PL: name, EN: name}
	}
	if id == VictoryCard {
		return rules.Text{PL: "Zwycięstwo", EN: "Victory"}
	}
	return rules.Text{PL: "rozkaz", EN: "an order"}
}

// orderNames are the cards' names, separated by semicolons.
func (s State) orderNames(ids []string) rules.Text {
	var pl, en []string
	for _, id := range ids {
		n := s.orderName(id)
		pl, en = append(pl, n.PL), append(en, n.EN)
	}
	return rules.Text{PL: strings.Join(pl, "; "), EN: strings.Join(en, "; ")}
}

// nodeNames are the nodes' names, separated by semicolons.
func (s State) nodeNames(ns []Node) string {
	var out []string
	for _, n := range ns {
		out = append(out, s.cat.Name(n))
	}
	return strings.Join(out, "; ")
}

// seatNames are the players' names of the seats.
func (s State) seatNames(seats []int) string {
	var out []string
	for _, seat := range seats {
		name := fmt.Sprint(seat)
		for _, p := range s.Players {
			if p.Seat == seat && p.Name != "" {
				name = p.Name
			}
		}
		out = append(out, name)
	}
	return strings.Join(out, ", ")
}
