// Package textcheck refuses invalid UTF-8, control characters and bidi
// overrides at every boundary, so both stores see the same strings
// (PostgreSQL rejects NUL) and no text reorders what is printed after it.
package textcheck

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// Error says what is wrong with a string and where, by byte offset.
type Error struct {
	Offset int
	Rune   rune // utf8.RuneError when the bytes are not UTF-8
}

func (e *Error) Error() string {
	if e.Rune == utf8.RuneError {
		return fmt.Sprintf("invalid UTF-8 at byte %d", e.Offset)
	}
	if bidiControl(e.Rune) {
		return fmt.Sprintf("bidi control character %U at byte %d", e.Rune, e.Offset)
	}
	return fmt.Sprintf("control character %U at byte %d", e.Rune, e.Offset)
}

// Line refuses invalid UTF-8 and every control character: for single-line fields.
func Line(s string) error { return check(s, false) }

// Multiline also accepts tabs, LF and CR: for notes.
func Multiline(s string) error { return check(s, true) }

// Field runs check on the value of a named field and names it in the error.
func Field(name, v string, check func(string) error) error {
	if err := check(v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

func check(s string, multiline bool) error {
	for i, r := range s {
		switch {
		case r == utf8.RuneError:
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return &Error{Offset: i, Rune: utf8.RuneError}
			}
		case multiline && (r == '\n' || r == '\r' || r == '\t'):
		case unicode.IsControl(r), bidiControl(r):
			return &Error{Offset: i, Rune: r}
		}
	}
	return nil
}

// bidiControl: the embeddings, overrides and isolates.
func bidiControl(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069)
}
