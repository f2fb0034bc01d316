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
	// OutTTY and ErrTTY are true when the stream is a terminal: tables are
	// aligned and progress bars shown only then.
	OutTTY bool
	ErrTTY bool
}

// SystemIO returns the process's streams.
func SystemIO() *IOStreams {
	return &IOStreams{
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		OutTTY: term.IsTerminal(int(os.Stdout.Fd())),
		ErrTTY: term.IsTerminal(int(os.Stderr.Fd())),
	}
}

// writeJSON writes v as indented JSON.
func (s *IOStreams) writeJSON(v any) error {
	enc := json.NewEncoder(s.Out)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// table prints rows aligned on a terminal and tab-separated (without the
// header) when piped, so scripts can cut fields without parsing padding.
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
	w := tabwriter.NewWriter(t.io.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, strings.Join(t.header, "\t"))
	for _, r := range t.rows {
		fmt.Fprintln(w, strings.Join(r, "\t"))
	}
	return w.Flush()
}
