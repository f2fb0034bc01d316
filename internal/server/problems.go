package server

import (
	"bytes"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/textcheck"
	"github.com/vds-dev/vds/internal/vehicle"
)

// plainPaths refuses a path that is not plain text before any handler sees
// it (PostgreSQL refuses what SQLite keeps), and answers the request
// targets ServeMux would in text: CONNECT and *.
func plainPaths(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodConnect:
			edge.MarkUnmatched(r)
			w.Header()["Allow"] = []string{""} // the target is no resource of ours
			edge.WriteCode(w, r, edge.CodeMethodNotAllowed, "", "vds is not a proxy: it answers no CONNECT.")
			return
		case r.RequestURI == "*" && r.Method == http.MethodOptions:
			edge.MarkUnmatched(r)
			w.Header().Set("Allow", serverMethods)
			w.WriteHeader(http.StatusNoContent)
			return
		case r.RequestURI == "*":
			edge.MarkUnmatched(r)
			edge.WriteCode(w, r, edge.CodeInvalidRequest, "", "The request target * is for OPTIONS only: send a path.")
			return
		}
		if err := textcheck.Line(r.URL.Path); err != nil {
			edge.WriteCode(w, r, vehicle.CodeInvalidParameter, "path",
				fmt.Sprintf("The path %s has %v: send a path of plain text.", vehicle.Echo(r.URL.Path), err))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// serverMethods are the methods some path of the server answers.
const serverMethods = "GET, HEAD, POST, OPTIONS"

// fallback, mounted at "/", answers what no pattern matched: 405 with Allow
// when the path is served for GET, else 404, instead of ServeMux's text.
func fallback(mux *http.ServeMux) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		edge.MarkUnmatched(r)
		probe := r.Clone(r.Context())
		probe.Method = http.MethodGet
		if _, pattern := mux.Handler(probe); pattern != "" && pattern != "/" {
			w.Header().Set("Allow", "GET, HEAD")
			edge.WriteCode(w, r, edge.CodeMethodNotAllowed, "", fmt.Sprintf("%s answers GET and HEAD only.", r.URL.Path))
			return
		}
		edge.WriteCode(w, r, vehicle.CodeNotFound, "",
			"No such page: the API is under /v1 (see /v1/openapi.json), MCP at /mcp and the dashboard at /dashboard/.")
	}
}

// problemListener rewrites as problems the canned text/plain errors
// net/http writes for a request it cannot read (no hook exists:
// golang/go#25116).
type problemListener struct {
	net.Listener
	log *slog.Logger
}

func (l problemListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &problemConn{Conn: c, log: l.log}, nil
}

type problemConn struct {
	net.Conn
	log *slog.Logger
}

// cannedError matches a canned response written whole in one Write; a
// handler's response always has Date and framing, so it cannot match.
var cannedError = regexp.MustCompile(`^HTTP/1\.1 ([0-9]{3}) [^\r\n]*\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n([^\r\n]*)$`)

// cannedHeaders end a canned response's head; a handler's response has a
// Date line after Connection, so only a write holding them (or a 417,
// which no handler sends) is matched at all.
var cannedHeaders = []byte("\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n")

// maxCanned is longer than any canned response; longer writes are not one.
const maxCanned = 512

// expectationFailed matches the empty 417 net/http answers an Expect other
// than 100-continue with, before any handler (no handler sends a 417).
var expectationFailed = regexp.MustCompile(`^HTTP/1\.1 (417) (Expectation Failed)\r\nConnection: close\r\nDate: [^\r\n]*\r\nContent-Length: 0\r\n\r\n$`)

func (c *problemConn) Write(b []byte) (int, error) {
	if len(b) > maxCanned || !bytes.HasPrefix(b, []byte("HTTP/1.1 ")) ||
		!bytes.HasPrefix(b, []byte("HTTP/1.1 417 ")) && !bytes.Contains(b, cannedHeaders) {
		return c.Conn.Write(b)
	}
	m := cannedError.FindSubmatch(b)
	if m == nil {
		if m = expectationFailed.FindSubmatch(b); m == nil {
			return c.Conn.Write(b)
		}
	}
	status, _ := strconv.Atoi(string(m[1]))
	id := edge.NewRequestID()
	c.log.Warn("unreadable request refused", "request_id", id, "remote_addr", c.RemoteAddr().String(),
		"status", status, "reason", string(m[2]))
	if _, err := c.Conn.Write(cannedProblem(status, string(m[2]), id)); err != nil {
		return 0, err
	}
	return len(b), nil
}

// CloseWrite lets net/http half-close the connection after an error, as
// it does a bare TCP connection, so the client reads the answer before
// the reset.
func (c *problemConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

func cannedProblem(status int, text, requestID string) []byte {
	code, detail := edge.CodeInvalidRequest, "The request could not be read as HTTP/1.1"
	// net/http's body is the status ("400 Bad Request") with, for some
	// errors, the reason after a colon.
	if _, reason, ok := strings.Cut(text, ": "); ok {
		detail += " (" + reason + ")"
	}
	detail += ": check the request line (method, a path with valid %-escapes and no spaces, HTTP/1.1) and the headers."
	switch status {
	case http.StatusRequestHeaderFieldsTooLarge:
		code, detail = edge.CodeHeadersTooLarge, "The request line and headers are over 16 KiB: send fewer or shorter headers."
	case http.StatusExpectationFailed:
		code, detail = edge.CodeExpectationFailed, "The request's Expect header asks for something other than 100-continue: send none, or Expect: 100-continue."
	case http.StatusNotImplemented:
		code, detail = edge.CodeNotImplemented, "The request uses a transfer encoding the server does not support: send the body with Content-Length or chunked."
	case http.StatusHTTPVersionNotSupported:
		code, detail = edge.CodeHTTPVersionNotSupported, "The request's HTTP version is not supported: use HTTP/1.1."
	}
	p := edge.NewProblem(nil, code, detail).WithStatus(status)
	p.RequestID = requestID
	body := edge.Marshal(p)
	var b bytes.Buffer
	fmt.Fprintf(&b, "HTTP/1.1 %d %s\r\nContent-Type: application/problem+json\r\nContent-Length: %d\r\nX-Request-Id: %s\r\nConnection: close\r\n\r\n",
		status, http.StatusText(status), len(body), requestID)
	b.Write(body)
	return b.Bytes()
}
