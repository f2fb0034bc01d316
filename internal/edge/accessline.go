package edge

import (
	"strconv"
	"time"
	"unicode"
	"unicode/utf8"
)

// LineFormat is how vds serve's access log writes a line: byte for byte
// what slog's JSON or text handler writes for the same record.
type LineFormat int

const (
	// JSONLines is log.format json.
	JSONLines LineFormat = iota
	// TextLines is log.format text.
	TextLines
)

// appendAccessLine appends rec's line in format f, with its newline, as
// log/slog's handlers do; TestAccessLineMatchesSlog and FuzzAccessLine
// hold it to slog's output.
func appendAccessLine(b []byte, f LineFormat, rec *accessRecord) []byte {
	json := f == JSONLines
	sep := byte(' ')
	if json {
		sep = ','
		b = append(b, '{')
	}
	// slog leaves out a zero time, and starts a JSON line with an error
	// for a year RFC 3339 cannot write (neither happens with a clock).
	if !rec.end.IsZero() {
		if json {
			b = append(b, `"time":`...)
			if y := rec.end.Year(); y < 0 || y >= 10000 {
				b = append(b, `"!ERROR:time.Time year outside of range [0,9999]"`...)
			}
			b = append(b, '"')
			b = rec.end.AppendFormat(b, time.RFC3339Nano)
			b = append(b, '"', ',')
		} else {
			b = append(b, "time="...)
			b = appendRFC3339Millis(b, rec.end)
			b = append(b, ' ')
		}
	}
	if json {
		b = append(b, `"level":"INFO","msg":"request"`...)
	} else {
		b = append(b, "level=INFO msg=request"...)
	}
	b = appendStringAttr(b, json, sep, "request_id", rec.id)
	b = appendStringAttr(b, json, sep, "method", rec.method)
	b = appendStringAttr(b, json, sep, "path", redactPath(rec.path))
	if rec.query != "" {
		b = appendStringAttr(b, json, sep, "query", redactQuery(rec.query))
	}
	b = appendStringAttr(b, json, sep, "route", rec.route)
	b = appendKey(b, json, sep, "status")
	b = strconv.AppendInt(b, int64(rec.status), 10)
	b = appendKey(b, json, sep, "duration_ms")
	ms := durationMillis(rec.elapsed)
	if json {
		// encoding/json writes 'f' unless 0 < |x| < 1e-6 or |x| >= 1e21,
		// which whole microseconds in milliseconds never are.
		b = strconv.AppendFloat(b, ms, 'f', -1, 64)
	} else {
		b = strconv.AppendFloat(b, ms, 'g', -1, 64)
	}
	b = appendKey(b, json, sep, "bytes")
	b = strconv.AppendInt(b, rec.bytes, 10)
	b = appendStringAttr(b, json, sep, "account_id", rec.accountID)
	if rec.code != "" {
		b = appendStringAttr(b, json, sep, "code", rec.code)
	}
	if json {
		b = append(b, '}')
	}
	return append(b, '\n')
}

// durationMillis is a line's duration_ms: whole microseconds, in milliseconds.
func durationMillis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func appendKey(b []byte, json bool, sep byte, key string) []byte {
	b = append(b, sep)
	if json {
		b = append(b, '"')
		b = append(b, key...)
		return append(b, '"', ':')
	}
	b = append(b, key...)
	return append(b, '=')
}

func appendStringAttr(b []byte, json bool, sep byte, key, s string) []byte {
	b = appendKey(b, json, sep, key)
	if json {
		b = append(b, '"')
		b = appendEscapedJSONString(b, s)
		return append(b, '"')
	}
	if !needsQuoting(s) {
		return append(b, s...)
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' || c == '"' || c == '\\' {
			return strconv.AppendQuote(b, s)
		}
	}
	// strconv.Quote escapes no printable ASCII but '"' and '\\': a route
	// skips its rune by rune loop.
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendRFC3339Millis is slog's text time: RFC 3339 with three digits of
// milliseconds, truncated.
func appendRFC3339Millis(b []byte, t time.Time) []byte {
	const prefixLen = len("2006-01-02T15:04:05.000")
	n := len(b)
	t = t.Truncate(time.Millisecond).Add(time.Millisecond / 10)
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b[:n+prefixLen], b[n+prefixLen+1:]...)
}

// appendEscapedJSONString is slog's JSON string escaping (encoding/json's
// without HTML escaping).
func appendEscapedJSONString(b []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if jsonSafe[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			b = append(b, '\\')
			switch c {
			case '\\', '"':
				b = append(b, c)
			case '\n':
				b = append(b, 'n')
			case '\r':
				b = append(b, 'r')
			case '\t':
				b = append(b, 't')
			default:
				b = append(b, 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, `\u202`...)
			b = append(b, hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(b, s[start:]...)
}

const hexDigits = "0123456789abcdef"

// jsonSafe is slog's safeSet: ASCII bytes that stand for themselves in a
// JSON string.
var jsonSafe = func() (t [256]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// needsQuoting is slog's text rule for quoting a value.
func needsQuoting(s string) bool {
	if s == "" {
		return true
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c != '\\' && (c == ' ' || c == '=' || !jsonSafe[c]) {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return true
		}
		i += size
	}
	return false
}
