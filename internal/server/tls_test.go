package server

import (
	"context"
	"log/slog"
	"math/big"
	"os"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/vds-dev/vds/internal/tlstest"
)

// TestCertWatch: the files are loaded again on SIGHUP and once they
// change, without a signal.
func TestCertWatch(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		ca := tlstest.NewCA(t)
		certFile, keyFile, _ := ca.WriteServer(t, dir)
		c, err := loadCertFiles(certFile, keyFile, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		served := func() *big.Int { return c.served.Load().Leaf.SerialNumber }
		ctx, cancel := context.WithCancel(t.Context())
		hup := make(chan os.Signal)
		go c.watch(ctx, hup)

		_, _, serial := ca.WriteServer(t, dir)
		hup <- syscall.SIGHUP
		synctest.Wait()
		if served().Cmp(serial) != 0 {
			t.Errorf("after SIGHUP: serial %s, want %s", served(), serial)
		}
		_, _, serial = ca.WriteServer(t, dir)
		// The clock of the file system does not follow the bubble's.
		later := time.Unix(2e9, 0)
		for _, f := range []string{certFile, keyFile} {
			if err := os.Chtimes(f, later, later); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(certCheckEvery)
		synctest.Wait()
		if served().Cmp(serial) != 0 {
			t.Errorf("after the files changed: serial %s, want %s", served(), serial)
		}
		cancel()
	})
}
