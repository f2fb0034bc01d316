package server

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// certFiles serves the certificate of server.tls_cert_file and
// tls_key_file, loaded again on SIGHUP or once either file changed. A pair
// that fails to load leaves the one served.
type certFiles struct {
	certFile, keyFile string
	served            atomic.Pointer[tls.Certificate]
	log               *slog.Logger
	mu                sync.Mutex
	// stamp is the files' sizes and times at the last load, tried or done.
	stamp string
}

// certCheckEvery is how often the files are looked at.
const certCheckEvery = 5 * time.Second

func loadCertFiles(certFile, keyFile string, log *slog.Logger) (*certFiles, error) {
	c := &certFiles{certFile: certFile, keyFile: keyFile, log: log}
	if err := c.load(); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *certFiles) load() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stamp = c.stat()
	pair, err := tls.LoadX509KeyPair(c.certFile, c.keyFile)
	if err != nil {
		return fmt.Errorf("server.tls_cert_file %s and server.tls_key_file %s: %w", c.certFile, c.keyFile, err)
	}
	c.served.Store(&pair)
	return nil
}

// stat tells apart two versions of the files; a rename over a file (as
// Kubernetes swaps secrets) changes its time too.
func (c *certFiles) stat() string {
	var s string
	for _, name := range []string{c.certFile, c.keyFile} {
		fi, err := os.Stat(name)
		if err != nil {
			s += err.Error() + ";"
			continue
		}
		s += fmt.Sprintf("%d %d;", fi.Size(), fi.ModTime().UnixNano())
	}
	return s
}

func (c *certFiles) getCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	return c.served.Load(), nil
}

// tlsConfig serves the files' certificate; net/http adds h2 to NextProtos.
func (c *certFiles) tlsConfig() *tls.Config {
	return &tls.Config{GetCertificate: c.getCertificate, MinVersion: tls.VersionTLS12}
}

// watch reloads the pair on hup, or when the files changed, until ctx ends.
func (c *certFiles) watch(ctx context.Context, hup <-chan os.Signal) {
	t := time.NewTicker(certCheckEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-hup:
			c.reload("SIGHUP")
		case <-t.C:
			c.mu.Lock()
			changed := c.stat() != c.stamp
			c.mu.Unlock()
			if changed {
				c.reload("files changed")
			}
		}
	}
}

func (c *certFiles) reload(why string) {
	if err := c.load(); err != nil {
		c.log.Error("TLS certificate reload failed; serving the previous one", "trigger", why, "err", err)
		return
	}
	c.logServed("TLS certificate reloaded", why)
}

func (c *certFiles) logServed(msg, why string) {
	leaf := c.served.Load().Leaf
	c.log.Info(msg, "trigger", why, "subject", leaf.Subject.String(), "serial", leaf.SerialNumber.String(),
		"not_after", leaf.NotAfter.UTC().Format(time.RFC3339))
}
