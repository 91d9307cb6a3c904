package pagecheck

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/chromedp/chromedp"
)

// Field is one field of the referee's correction form as a person fills
// it: Label is the field's label as the page shows it, Value the name of
// the option picked from a list (as the page shows it), the text typed in
// a box, or "true"/"false" for a tick box; Values are the names picked
// from a list that takes several.
type Field struct {
	Label, Value string
	Values       []string
}

// Correct fills the referee's correction form on the page Load opened, the
// way a person does: the action picked by its name, each field found by
// its label and filled by the names the page shows; then the entry's
// number and the reason (set, not typed: a browser's key events lose
// Polish letters), and "correct the entry" pressed. It fails when a
// name is not on the page (the error lists what is).
func Correct(ctx context.Context, action string, fields []Field, seq int64, reason string) error {
	spec, _ := json.Marshal(map[string]any{"action": action, "fields": fields, "seq": strconv.FormatInt(seq, 10), "reason": reason})
	js := `((spec) => {
  const form = document.querySelector("[data-testid=correction]");
  if (!form) return "no correction form on the page";
  const pick = (sel, name) => {
    const o = [...sel.options].find(o => o.textContent === name);
    if (!o) return "no " + JSON.stringify(name) + " among " + JSON.stringify([...sel.options].map(o => o.textContent));
    sel.value = o.value; sel.dispatchEvent(new Event("change")); return "";
  };
  let err = pick(document.querySelector("[data-testid=correction-type]"), spec.action);
  if (err) return "the action: " + err;
  for (const f of spec.fields) {
    const label = [...document.querySelectorAll("[data-testid=correction] label.field")].find(l => l.firstChild && l.firstChild.textContent === f.Label);
    if (!label) return "no field " + JSON.stringify(f.Label) + " among " + JSON.stringify([...document.querySelectorAll("[data-testid=correction] label.field")].map(l => l.firstChild.textContent));
    const input = label.querySelector("[data-field]");
    if (input.multiple) {
      const names = f.Values || [];
      const missing = names.filter(n => ![...input.options].some(o => o.textContent === n));
      if (missing.length) return f.Label + ": no " + JSON.stringify(missing) + " among " + JSON.stringify([...input.options].map(o => o.textContent));
      [...input.options].forEach(o => { o.selected = names.includes(o.textContent); });
      input.dispatchEvent(new Event("change"));
    } else if (input.tagName === "SELECT") { err = pick(input, f.Value); if (err) return f.Label + ": " + err; }
    else if (input.type === "checkbox") { input.checked = f.Value === "true"; input.dispatchEvent(new Event("change")); }
    else { input.value = f.Value; input.dispatchEvent(new Event("input")); }
  }
  document.querySelector("[data-testid=ruling-seq]").value = spec.seq;
  document.querySelector("[data-testid=ruling-text]").value = spec.reason;
  return "";
})(` + string(spec) + `)`
	msg, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
	if err != nil {
		return fmt.Errorf("pagecheck: the correction form: %w", err)
	}
	if msg != "" {
		return fmt.Errorf("pagecheck: the correction form: %s", msg)
	}
	// The entry and the reason are set as values, not typed: the browser's
	// key events lose Polish letters.
	err = chromedp.Do(ctx, chromedp.Click(`[data-testid=cmd-correct]`))
	if err != nil {
		return fmt.Errorf("pagecheck: sending the correction: %w", err)
	}
	return nil
}
