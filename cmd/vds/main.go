// Command vds is the vehicle-data service: the server, its operator
// commands, and a client for any vds instance.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/vds-dev/vds/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:])
	stop()
	os.Exit(code)
}
