package companion

import (
	"crypto/tls"
	"os"
)

// checkDisplayTLS checks display.tls: both files or neither, each readable,
// and a certificate that goes with its key.
func (c *Config) checkDisplayTLS() error {
	t := c.Display.TLS
	if !t.Enabled() {
		return nil
	}
	for _, f := range []struct{ key, path string }{{"display.tls.cert_file", t.CertFile}, {"display.tls.key_file", t.KeyFile}} {
		if f.path == "" {
			return c.errAt("display.tls", "cert_file and key_file go together")
		}
		if _, err := os.Stat(c.Resolve(f.path)); err != nil {
			return c.errAt(f.key, "%v", err)
		}
	}
	if _, err := tls.LoadX509KeyPair(c.Resolve(t.CertFile), c.Resolve(t.KeyFile)); err != nil {
		return c.errAt("display.tls", "%v", err)
	}
	return nil
}
