package wire

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// brokerSchemes are the URL schemes paho dials.
var brokerSchemes = map[string]bool{"tcp": true, "ssl": true, "tls": true, "mqtt": true, "mqtts": true, "ws": true, "wss": true}

// maxBrokers bounds a broker list (a cluster has a handful of nodes).
const maxBrokers = 16

// ParseBrokers reads a broker list: one URL, or several separated by
// commas (a venue's NATS cluster: every node's MQTT address), each like
// tcp://host:1883 or ssl://host:8883. A client tries them in order and,
// when its broker goes away, reconnects to the first that answers. An
// entry that is not such a URL, an empty entry or a URL listed twice is
// an error naming the entry.
func ParseBrokers(list string) ([]string, error) {
	if strings.TrimSpace(list) == "" {
		return nil, fmt.Errorf("wire: broker list: empty, want a URL like tcp://host:1883")
	}
	parts := strings.Split(list, ",")
	if len(parts) > maxBrokers {
		return nil, fmt.Errorf("wire: broker list: %d URLs, at most %d", len(parts), maxBrokers)
	}
	out := make([]string, 0, len(parts))
	seen := map[string]bool{}
	for i, p := range parts {
		p = strings.TrimSpace(p)
		where := ""
		if len(parts) > 1 {
			where = fmt.Sprintf("entry %d of %d ", i+1, len(parts))
		}
		if err := checkBroker(p); err != nil {
			return nil, fmt.Errorf("wire: broker list: %s%q: %s", where, p, err)
		}
		if seen[p] {
			return nil, fmt.Errorf("wire: broker list: %s%q is listed twice", where, p)
		}
		seen[p] = true
		out = append(out, p)
	}
	return out, nil
}

func checkBroker(s string) error {
	const want = "want a broker URL like tcp://host:1883 or ssl://host:8883"
	if s == "" {
		return fmt.Errorf("empty; %s", want)
	}
	u, err := url.Parse(s)
	if err != nil || u.Opaque != "" {
		return fmt.Errorf("not a URL; %s", want)
	}
	if !brokerSchemes[u.Scheme] {
		return fmt.Errorf("scheme %q, want tcp, ssl, tls, mqtt, mqtts, ws or wss (%s)", u.Scheme, want)
	}
	host, port, err := net.SplitHostPort(u.Host)
	if err != nil || host == "" {
		return fmt.Errorf("no host:port; %s", want)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return fmt.Errorf("port %q is not 1–65535", port)
	}
	if u.User != nil {
		return fmt.Errorf("credentials in the URL: give them as the username and password settings")
	}
	if (u.Scheme != "ws" && u.Scheme != "wss") && (u.Path != "" && u.Path != "/" || u.RawQuery != "" || u.Fragment != "") {
		return fmt.Errorf("a path or query after host:port; %s", want)
	}
	return nil
}
