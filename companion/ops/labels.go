package ops

import "sync"

// Other is the label value every value past a Bounded's limit becomes.
const Other = "other"

// Bounded keeps a label's values few: the first Max distinct values pass
// (made safe: at most 40 bytes of letters, digits, '_', '-', '/', '.', ':'),
// later new ones become "other". Device names, refusal codes and the like
// come from the config and the game's code, but a misbehaving source (a
// scripted keypad, a broker delivering anything) must not grow the series
// without end.
type Bounded struct {
	Max  int
	mu   sync.Mutex
	seen map[string]bool
}

// Value is the label value for s.
func (b *Bounded) Value(s string) string {
	s = clean(s)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.seen == nil {
		b.seen = map[string]bool{}
	}
	if b.seen[s] {
		return s
	}
	if len(b.seen) >= b.Max {
		return Other
	}
	b.seen[s] = true
	return s
}

func clean(s string) string {
	if s == "" {
		return "none"
	}
	out := make([]byte, 0, min(len(s), 40))
	for i := 0; i < len(s) && len(out) < 40; i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-', c == '/', c == '.', c == ':':
			out = append(out, c)
		default:
			out = append(out, '_')
		}
	}
	return string(out)
}
