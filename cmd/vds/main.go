// Command vds is the vehicle-data service: the server, its operator
// commands, and a client for any vds instance.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	// The IANA time zone database, embedded (about 450 kB) so that TZ works
	// in the scratch container image, which has no /usr/share/zoneinfo.
	_ "time/tzdata"

	"github.com/vds-dev/vds/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:])
	stop()
	os.Exit(code)
}
