package mali

import "github.com/sztab/sztab/rules"

func rulesAsRejection(err error) (string, bool) {
	r, ok := rules.AsRejection(err)
	if !ok {
		return "", false
	}
	if r.Reason.PL == "" || r.Reason.EN == "" {
		return "missing PL or EN reason", true
	}
	return r.Code, true
}
