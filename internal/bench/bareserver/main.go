// Command bareserver is the baseline of `make bench`: bare.Handler on
// the body of a file, on a loopback port it prints.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"

	"github.com/vds-dev/vds/internal/bench/bare"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	bodyFile := flag.String("body", "", "file holding the response body")
	flag.Parse()
	body, err := os.ReadFile(*bodyFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bareserver:", err)
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bareserver:", err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr().String())
	err = http.Serve(ln, bare.Handler(body))
	fmt.Fprintln(os.Stderr, "bareserver:", err)
	os.Exit(1)
}
