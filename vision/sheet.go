package vision

import (
	"bytes"
	"fmt"
	"html"
	"math"
)

// Paper is a printed page, mm.
type Paper struct{ W, H, Margin float64 }

// A4 is the default paper.
var A4 = Paper{W: 210, H: 297, Margin: 10}

// MarkerSheets lays the registry's markers out for printing at 100% as SVG
// pages: the fiducials with their white card, then each model's marker in
// the circle of its base (cut along the grey line), labelled. Sizes are
// exact millimetres.
func MarkerSheets(reg *Registry, paper Paper) [][]byte {
	type item struct {
		marker     int
		side, box  float64 // marker side, cell of the layout
		circle     float64 // base diameter, 0 for a fiducial
		label      string
		fiducial   bool
		cardMargin float64
	}
	var items []item
	for _, f := range reg.Fiducials.Markers {
		m := f.SideMM / 6
		items = append(items, item{marker: f.Marker, side: f.SideMM, box: f.SideMM + 2*m + 8, label: fmt.Sprintf("fiducial %d  (%g, %g) mm", f.Marker, f.X, f.Y), fiducial: true, cardMargin: m})
	}
	for _, m := range reg.Models {
		items = append(items, item{marker: m.Marker, side: m.MarkerMM, box: m.BaseMM + 8, circle: m.BaseMM, label: fmt.Sprintf("%s #%d", m.ID, m.Marker)})
	}
	var pages [][]byte
	var b *bytes.Buffer
	x, y, rowH := 0.0, 0.0, 0.0
	startPage := func() {
		if b != nil {
			b.WriteString("</svg>\n")
			pages = append(pages, b.Bytes())
		}
		b = &bytes.Buffer{}
		fmt.Fprintf(b, `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="%gmm" height="%gmm" viewBox="0 0 %g %g" shape-rendering="crispEdges">
<title>Sztab markers, %s — print at 100%%</title>
<rect x="0" y="0" width="%g" height="%g" fill="white"/>
<text x="%g" y="%g" font-family="sans-serif" font-size="3">Sztab markers (%s) — print at 100%%, no scaling; check: this line is 100 mm</text>
<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="black" stroke-width="0.3"/>
`, paper.W, paper.H, paper.W, paper.H, reg.Dictionary, paper.W, paper.H, paper.Margin, paper.Margin+3, reg.Dictionary, paper.Margin, paper.Margin+5, paper.Margin+100, paper.Margin+5)
		x, y, rowH = paper.Margin, paper.Margin+10, 0
	}
	startPage()
	dict := reg.Dict()
	n := dict.Size + 2
	for _, it := range items {
		w := math.Max(it.box, 34)
		if x+w > paper.W-paper.Margin {
			x, y, rowH = paper.Margin, y+rowH, 0
		}
		if y+it.box+4 > paper.H-paper.Margin {
			startPage()
		}
		cx, cy := x+w/2, y+it.box/2
		if it.fiducial {
			card := it.side + 2*it.cardMargin
			fmt.Fprintf(b, `<rect x="%.3f" y="%.3f" width="%.3f" height="%.3f" fill="none" stroke="#bbb" stroke-width="0.2"/>`+"\n", cx-card/2, cy-card/2, card, card)
		} else {
			fmt.Fprintf(b, `<circle cx="%.3f" cy="%.3f" r="%.3f" fill="none" stroke="#bbb" stroke-width="0.2"/>`+"\n", cx, cy, it.circle/2)
		}
		cell := it.side / float64(n)
		x0, y0 := cx-it.side/2, cy-it.side/2
		for r := 0; r < n; r++ {
			// one rectangle per run of black cells
			for c := 0; c < n; {
				if dict.Cell(it.marker, r, c) {
					c++
					continue
				}
				run := c
				for run < n && !dict.Cell(it.marker, r, run) {
					run++
				}
				fmt.Fprintf(b, `<rect x="%.4f" y="%.4f" width="%.4f" height="%.4f" fill="black"/>`+"\n", x0+float64(c)*cell, y0+float64(r)*cell, float64(run-c)*cell, cell)
				c = run
			}
		}
		fmt.Fprintf(b, `<text x="%.3f" y="%.3f" font-family="sans-serif" font-size="2.5" text-anchor="middle">%s</text>`+"\n", cx, y+it.box+1.5, html.EscapeString(it.label))
		x += w
		rowH = math.Max(rowH, it.box+5)
	}
	b.WriteString("</svg>\n")
	pages = append(pages, b.Bytes())
	return pages
}
