// Command bareserver is the baseline of `make bench`: a bare net/http
// handler writing the bytes vds would, for free; to a client that accepts
// gzip it writes them compressed once at start.
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
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
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write(body)
	_ = zw.Close()
	compressed := gz.Bytes()
	length, gzLength := strconv.Itoa(len(body)), strconv.Itoa(len(compressed))
	err = http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("Vary", "Accept-Encoding")
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			h.Set("Content-Encoding", "gzip")
			h.Set("Content-Length", gzLength)
			_, _ = w.Write(compressed)
			return
		}
		h.Set("Content-Length", length)
		_, _ = w.Write(body)
	}))
	fmt.Fprintln(os.Stderr, "bareserver:", err)
	os.Exit(1)
}
