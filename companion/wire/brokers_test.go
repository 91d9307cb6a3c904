package wire

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseBrokers(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string
		err      string
	}{
		{name: "one", in: "tcp://broker.venue:1883", want: []string{"tcp://broker.venue:1883"}},
		{name: "a cluster, spaces trimmed", in: "tcp://n1:1883, tcp://n2:1883 ,tcp://n3:1883", want: []string{"tcp://n1:1883", "tcp://n2:1883", "tcp://n3:1883"}},
		{name: "tls and websockets", in: "ssl://h:8883,wss://h:443/mqtt", want: []string{"ssl://h:8883", "wss://h:443/mqtt"}},
		{name: "ipv6", in: "tcp://[::1]:1883", want: []string{"tcp://[::1]:1883"}},
		{name: "empty", in: " ", err: "wire: broker list: empty"},
		{name: "an empty entry", in: "tcp://n1:1883,,tcp://n3:1883", err: `entry 2 of 3 "": empty`},
		{name: "a trailing comma", in: "tcp://n1:1883,", err: `entry 2 of 2 "": empty`},
		{name: "a bad scheme in the middle", in: "tcp://n1:1883,http://n2:1883,tcp://n3:1883", err: `entry 2 of 3 "http://n2:1883": scheme "http"`},
		{name: "no port", in: "tcp://n1", err: `"tcp://n1": no host:port`},
		{name: "no scheme", in: "n1:1883", err: `"n1:1883": not a URL`},
		{name: "a bare host", in: "broker", err: `"broker": scheme ""`},
		{name: "port zero", in: "tcp://n1:0", err: `port "0" is not 1–65535`},
		{name: "port out of range", in: "tcp://n1:70000", err: `port "70000" is not 1–65535`},
		{name: "twice", in: "tcp://n1:1883,tcp://n1:1883", err: `entry 2 of 2 "tcp://n1:1883" is listed twice`},
		{name: "credentials", in: "tcp://u:p@n1:1883", err: "credentials in the URL"},
		{name: "a path on tcp", in: "tcp://n1:1883/x", err: "a path or query"},
		{name: "too many", in: strings.Repeat("tcp://n:1,", 17) + "tcp://n:1", err: "18 URLs, at most 16"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseBrokers(tc.in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %v, %v; want an error with %q", got, err, tc.err)
				}
				if got != nil {
					t.Errorf("an error with a list: %v", got)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}
