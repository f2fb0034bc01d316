// Command bareserver is the baseline of `make bench`: a bare net/http
// handler writing the bytes vds would, for free.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
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
	length := strconv.Itoa(len(body))
	err = http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", length)
		_, _ = w.Write(body)
	}))
	fmt.Fprintln(os.Stderr, "bareserver:", err)
	os.Exit(1)
}
