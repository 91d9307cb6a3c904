package hardware

import "testing"

func TestNormalizeUID(t *testing.T) {
	good := map[string]string{
		"04a1b2c3":             "04A1B2C3",
		"04:A1:B2:C3":          "04A1B2C3",
		"04-11-22-33-44-55-66": "04112233445566",
		"0102030405060708090A": "0102030405060708090A",
	}
	for in, want := range good {
		if got, err := NormalizeUID(in); err != nil || got != want {
			t.Errorf("NormalizeUID(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "04A1B2", "04A1B2C3D4", "ZZA1B2C3"} {
		if _, err := NormalizeUID(bad); err == nil {
			t.Errorf("NormalizeUID(%q) accepted it", bad)
		}
	}
}
