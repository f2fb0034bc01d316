package cli

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/itchyny/gojq"

	"github.com/vds-dev/vds/internal/textfmt"
)

// This file is the one way the commands print JSON: --json prints the
// value (for the client commands, the API's data), and --jq EXPR filters
// it first, as jq would, and implies --json.

// prepareJSON compiles --jq before the command runs, so a bad expression
// is a usage error before any request or database work.
func (f *Factory) prepareJSON() error {
	if f.jqExpr == "" {
		return nil
	}
	code, err := compileJQ(f.jqExpr)
	if err != nil {
		return err
	}
	f.jq, f.JSON = code, true
	return nil
}

func compileJQ(expr string) (*gojq.Code, error) {
	q, err := gojq.Parse(expr)
	if err != nil {
		return nil, usageErrorf(fmt.Errorf("--jq %q: %w", expr, err))
	}
	code, err := gojq.Compile(q)
	if err != nil {
		return nil, usageErrorf(fmt.Errorf("--jq %q: %w", expr, err))
	}
	return code, nil
}

func (f *Factory) writeJSON(v any) error {
	if f.jq == nil {
		return f.IO.writeJSON(v)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return runJQ(f.jq, b, f.IO.Out)
}

// runJQ prints each result of code on doc on its own line: strings raw
// (like jq -r), anything else as compact JSON.
func runJQ(code *gojq.Code, doc []byte, w io.Writer) error {
	var in any
	if err := json.Unmarshal(doc, &in); err != nil {
		return fmt.Errorf("--jq: the input is not JSON: %w", err)
	}
	iter := code.Run(in)
	for {
		v, ok := iter.Next()
		if !ok {
			return nil
		}
		if err, ok := v.(error); ok {
			if he, ok := err.(*gojq.HaltError); ok && he.Value() == nil {
				return nil
			}
			return fmt.Errorf("--jq: %w", err)
		}
		if s, ok := v.(string); ok {
			if _, err := fmt.Fprintln(w, textfmt.Printable(s)); err != nil {
				return err
			}
			continue
		}
		b, err := gojq.Marshal(v)
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(w, "%s\n", textfmt.JSON(b)); err != nil {
			return err
		}
	}
}
