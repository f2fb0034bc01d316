package textcheck

import (
	"errors"
	"testing"
	"unicode/utf8"
)

func TestLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in         string
		wantOffset int // -1: accepted
		wantRune   rune
	}{
		{"Camry", -1, 0},
		{"Škoda Octavia ½ – 日本", -1, 0},
		{"literal \uFFFD is text", -1, 0},
		{"", -1, 0},
		{"a\x00b", 1, 0},
		{"tab\there", 3, '\t'},
		{"line\nbreak", 4, '\n'},
		{"del\x7f", 3, 0x7f},
		{"c1\u0085", 2, 0x85},
		{"bad\xffutf8", 3, utf8.RuneError},
		{"cut\xe6\x97", 3, utf8.RuneError},
		{"Toy\u202Eota", 3, 0x202E},
		{"a\u2066b", 1, 0x2066},
		{"Hebrew mark \u200F stays", -1, 0},
	} {
		err := Line(tc.in)
		if tc.wantOffset < 0 {
			if err != nil {
				t.Errorf("Line(%q) = %v, want accepted", tc.in, err)
			}
			continue
		}
		var te *Error
		if !errors.As(err, &te) || te.Offset != tc.wantOffset || te.Rune != tc.wantRune {
			t.Errorf("Line(%q) = %#v, want offset %d rune %U", tc.in, err, tc.wantOffset, tc.wantRune)
		}
	}
}

func TestMultiline(t *testing.T) {
	t.Parallel()
	if err := Multiline("first line\r\nsecond\tcolumn"); err != nil {
		t.Errorf("Multiline refused line breaks and tabs: %v", err)
	}
	for _, in := range []string{"nul\x00", "bell\a", "esc\x1b[31m", "bad\xc0"} {
		if Multiline(in) == nil {
			t.Errorf("Multiline(%q) accepted", in)
		}
	}
	if got := Line("x\x00").Error(); got != "control character U+0000 at byte 1" {
		t.Errorf("message = %q", got)
	}
	if got := Line("x\xff").Error(); got != "invalid UTF-8 at byte 1" {
		t.Errorf("message = %q", got)
	}
	if got := Multiline("x\u202E").Error(); got != "bidi control character U+202E at byte 1" {
		t.Errorf("message = %q", got)
	}
}

func TestField(t *testing.T) {
	t.Parallel()
	if err := Field("list name", "Road trips", Line); err != nil {
		t.Errorf("Field accepted nothing: %v", err)
	}
	err := Field("note", "x\x00", Multiline)
	var te *Error
	if !errors.As(err, &te) || err.Error() != "note: control character U+0000 at byte 1" {
		t.Errorf("Field = %v, want the field named and the textcheck error wrapped", err)
	}
}
