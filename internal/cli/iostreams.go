package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/vds-dev/vds/internal/textfmt"
	"golang.org/x/term"
)

// IOStreams are the command's standard streams and what they are attached to.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// InTTY is true when stdin is a terminal: vds login then prompts for
	// the token without echo instead of reading a line.
	InTTY bool
	// OutTTY and ErrTTY are true when the stream is a terminal: tables are
	// aligned and progress bars shown only then.
	OutTTY bool
	ErrTTY bool
	// Color allows ANSI colours on Out; see ColorEnabled.
	Color bool
}

// SystemIO returns the process's streams.
func SystemIO() *IOStreams {
	outTTY := term.IsTerminal(int(os.Stdout.Fd()))
	return &IOStreams{
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		InTTY:  term.IsTerminal(int(os.Stdin.Fd())),
		OutTTY: outTTY,
		ErrTTY: term.IsTerminal(int(os.Stderr.Fd())),
		Color:  ColorEnabled(outTTY, os.Getenv),
	}
}

// ColorEnabled decides whether output to a stream may be coloured: only on
// a terminal, never when NO_COLOR is set to anything but "" (no-color.org),
// and not on a terminal that declares itself dumb.
func ColorEnabled(tty bool, getenv func(string) string) bool {
	return tty && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
}

// ANSI colours used by the client commands.
const (
	colorGreen  = "32"
	colorRed    = "31"
	colorYellow = "33"
	colorBold   = "1"
)

// colorize escapes text (textfmt.Printable), which may come from the
// server, and colours it.
func (s *IOStreams) colorize(code, text string) string {
	text = textfmt.Printable(text)
	if !s.Color || text == "" {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

// writeJSON prints v indented, escaped for a terminal (textfmt.JSON).
func (s *IOStreams) writeJSON(v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return s.writeJSONText(b)
}

// writeJSONText prints a JSON document on its own line, escaped for a
// terminal.
func (s *IOStreams) writeJSONText(b []byte) error {
	_, err := fmt.Fprintf(s.Out, "%s\n", textfmt.JSON(b))
	return err
}

// show ends a command that prints one value: err (from fetching v) as is,
// else v as JSON under --json, else human's rendering.
func (f *Factory) show(v any, err error, human func() error) error {
	if err != nil {
		return err
	}
	if f.JSON {
		return f.writeJSON(v)
	}
	return human()
}

// table prints rows aligned on a terminal, and tab-separated without the
// header when piped. Cells are escaped (textfmt.Printable), so server text
// never reaches the terminal raw nor splits a row.
type table struct {
	io     *IOStreams
	header []string
	rows   [][]string
}

func (s *IOStreams) newTable(header ...string) *table { return &table{io: s, header: header} }

func (t *table) row(cells ...string) {
	for i, c := range cells {
		cells[i] = textfmt.Printable(c)
	}
	t.rows = append(t.rows, cells)
}

// colorLast colours the last cell of the last row; tabwriter counts colour
// escapes as width, so only a cell no column follows may be coloured.
func (t *table) colorLast(code string) {
	r := t.rows[len(t.rows)-1]
	r[len(r)-1] = t.io.colorize(code, r[len(r)-1])
}

func (t *table) flush() error {
	if !t.io.OutTTY {
		for _, r := range t.rows {
			if _, err := fmt.Fprintln(t.io.Out, strings.Join(r, "\t")); err != nil {
				return err
			}
		}
		return nil
	}
	w := tabwriter.NewWriter(t.io.Out, 0, 4, 2, ' ', 0)
	if len(t.header) > 0 {
		fmt.Fprintln(w, strings.Join(t.header, "\t"))
	}
	for _, r := range t.rows {
		fmt.Fprintln(w, strings.Join(r, "\t"))
	}
	return w.Flush()
}
