package textfmt

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Printable returns s with every character a terminal would act on
// written as a Go escape, so text from a server can be printed safely:
// C0 controls (tab and newline too), DEL, C1 controls, bidi formatting
// characters, and bytes that are not UTF-8. Text without them is returned
// as it is, without allocating.
func Printable(s string) string { return escape(s, false) }

// PrintableLines is Printable for text of several lines: it keeps newlines
// and tabs.
func PrintableLines(s string) string { return escape(s, true) }

func escape(s string, lines bool) string {
	i := 0
	for i < len(s) && s[i] >= ' ' && s[i] < 0x7f {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case lines && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < ' ' || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case jsonRaw(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// JSON escapes in JSON text what a terminal would act on and JSON leaves
// raw: DEL, C1 controls and bidi formatting characters become \u escapes,
// a byte that is not UTF-8 becomes \ufffd (as a decoder reads it). These
// occur only inside strings, so the JSON stays valid and means the same.
func JSON(b []byte) []byte {
	i := 0
	for i < len(b) && b[i] < 0x7f {
		i++
	}
	if i == len(b) {
		return b
	}
	out := append(make([]byte, 0, len(b)+16), b[:i]...)
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = append(out, `\ufffd`...)
		case jsonRaw(r):
			out = fmt.Appendf(out, `\u%04x`, r)
		default:
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

// jsonRaw reports the characters Printable escapes that JSON does not: DEL,
// C1 controls, and the bidi marks, embeddings, overrides and isolates that
// reorder text.
func jsonRaw(r rune) bool {
	return r >= 0x7f && r <= 0x9f || r == 0x061c || r == 0x200e || r == 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}
