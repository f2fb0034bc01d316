package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

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

func (s *IOStreams) colorize(code, text string) string {
	if !s.Color || text == "" {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

func (s *IOStreams) writeJSON(v any) error {
	enc := json.NewEncoder(s.Out)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
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
// header when piped, for scripts.
type table struct {
	io     *IOStreams
	header []string
	rows   [][]string
}

func (s *IOStreams) newTable(header ...string) *table { return &table{io: s, header: header} }

func (t *table) row(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) flush() error {
	if !t.io.OutTTY {
		for _, r := range t.rows {
			if _, err := fmt.Fprintln(t.io.Out, strings.Join(r, "\t")); err != nil {
				return err
			}
		}
		return nil
	}
	// tabwriter counts colour escapes as width, so only a row's last cell,
	// which no column follows, may be coloured.
	w := tabwriter.NewWriter(t.io.Out, 0, 4, 2, ' ', 0)
	if len(t.header) > 0 {
		fmt.Fprintln(w, strings.Join(t.header, "\t"))
	}
	for _, r := range t.rows {
		fmt.Fprintln(w, strings.Join(r, "\t"))
	}
	return w.Flush()
}
