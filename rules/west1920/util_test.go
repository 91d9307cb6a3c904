package west1920

import (
	"encoding/json"

	"github.com/sztab/sztab/rules"
)

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

func asRejection(err error) (*rules.Rejection, bool) { return rules.AsRejection(err) }
