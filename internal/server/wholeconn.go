package server

import (
	"bytes"
	"net"
	"sync"
	"time"
)

// wholeConn sends each HTTP/1.1 response of known length in one write:
// net/http buffers 4 KiB, so a page of cars (about 5 KB) would take two
// system calls and two segments. It reads the start of a response and,
// when it declares a Content-Length, holds the bytes until all have come.
// A response without a length, or over maxWhole, passes as it comes.
//
// net/http sets the write deadline before each handler runs and clears it
// once the answer is flushed; either ends a response (a HEAD answer
// declares a length it does not send). Only Close runs on another
// goroutine, and it touches no state.
type wholeConn struct {
	net.Conn
	state wholeState
	// want is how many bytes of the held response are still to come.
	want int
	held *[]byte
}

type wholeState uint8

const (
	// atStart: the next write begins a response.
	atStart wholeState = iota
	// holding: the response's bytes are kept until want reaches zero.
	holding
	// passing: the rest of this response passes as it comes.
	passing
)

// maxWhole bounds what a connection holds.
const maxWhole = 64 << 10

var wholeBufs = sync.Pool{New: func() any {
	b := make([]byte, 0, 8<<10)
	return &b
}}

func (c *wholeConn) Write(b []byte) (int, error) {
	switch c.state {
	case holding:
		*c.held = append(*c.held, b...)
		c.want -= len(b)
		if c.want > 0 {
			return len(b), nil
		}
		if err := c.release(); err != nil {
			return 0, err
		}
		return len(b), nil
	case atStart:
		n, informational := responseLength(b)
		switch {
		case informational:
			// A 100 Continue leaves at once; the response follows.
		case n > len(b) && n <= maxWhole:
			c.held = wholeBufs.Get().(*[]byte)
			*c.held = append(*c.held, b...)
			c.want, c.state = n-len(b), holding
			return len(b), nil
		default:
			c.state = passing
		}
	}
	return c.Conn.Write(b)
}

func (c *wholeConn) release() error {
	_, err := c.Conn.Write(*c.held)
	*c.held = (*c.held)[:0]
	wholeBufs.Put(c.held)
	c.held, c.state = nil, passing
	return err
}

// endResponse writes what is held and expects a new response. A failed
// write closes the connection, which net/http would otherwise wait on.
func (c *wholeConn) endResponse() {
	if c.state == holding && c.release() != nil {
		c.Conn.Close()
	}
	c.state = atStart
}

func (c *wholeConn) SetWriteDeadline(t time.Time) error {
	c.endResponse()
	return c.Conn.SetWriteDeadline(t)
}

func (c *wholeConn) SetDeadline(t time.Time) error {
	c.endResponse()
	return c.Conn.SetDeadline(t)
}

var (
	http11        = []byte("HTTP/1.1 ")
	headerEnd     = []byte("\r\n\r\n")
	contentLength = []byte("\r\nContent-Length: ")
)

// responseLength reads the start of a response and returns its whole
// length, or -1 when unknown or over maxWhole; informational marks a 1xx.
func responseLength(b []byte) (n int, informational bool) {
	if !bytes.HasPrefix(b, http11) || len(b) < len(http11)+3 {
		return -1, false
	}
	if b[len(http11)] == '1' {
		return -1, true
	}
	end := bytes.Index(b, headerEnd)
	if end < 0 {
		return -1, false
	}
	head := b[:end+2]
	i := bytes.Index(head, contentLength)
	if i < 0 {
		return -1, false
	}
	v := head[i+len(contentLength):]
	v = v[:bytes.IndexByte(v, '\r')]
	if len(v) == 0 {
		return -1, false
	}
	size := 0
	for _, d := range v {
		if d < '0' || d > '9' || size > maxWhole {
			return -1, false
		}
		size = size*10 + int(d-'0')
	}
	if size > maxWhole {
		return -1, false
	}
	return end + len(headerEnd) + size, false
}
