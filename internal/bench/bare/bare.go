// Package bare is the baseline vds is measured against: a bare net/http
// handler writing the bytes vds would, for free. make bench serves it
// (bench/bareserver), and the server's hot-path benchmark runs it in
// process.
package bare

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"strconv"
	"strings"
)

// Handler writes body, and to a client that accepts gzip body compressed
// once here.
func Handler(body []byte) http.Handler {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write(body)
	_ = zw.Close()
	compressed := gz.Bytes()
	length, gzLength := strconv.Itoa(len(body)), strconv.Itoa(len(compressed))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
	})
}
