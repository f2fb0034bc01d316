package mcptools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	sjs "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"github.com/vds-dev/vds/internal/textfmt"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// checker validates one tool's arguments and structured results with
// santhosh-tekuri/jsonschema, the implementation mcp-go's own input and
// output validation uses, so the two always agree on what is valid. mcp-go
// reports a failure as "/year: got string, want integer"; checker says it
// in a sentence that names the argument, what it takes and an example.
type checker struct {
	tool string
	in   *jsonschema.Schema
	// inC and outC compile on a tool's first call: the 22 compiled schemas
	// are 6,800 objects that every garbage collection walks, held for
	// nothing by a server no agent calls.
	inC, outC func() *sjs.Schema
}

func newChecker(tool string, in, out json.RawMessage, inDoc *jsonschema.Schema) *checker {
	return &checker{
		tool: tool, in: inDoc,
		inC:  sync.OnceValue(func() *sjs.Schema { return compile(tool, "input", in) }),
		outC: sync.OnceValue(func() *sjs.Schema { return compile(tool, "output", out) }),
	}
}

// compile compiles a schema the registry generated; failing is a bug in
// the registry, caught by TestSchemasCompile.
func compile(tool, which string, raw json.RawMessage) *sjs.Schema {
	doc, err := sjs.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		panic(fmt.Sprintf("mcptools: %s %s schema: %v", tool, which, err))
	}
	url := "mem:///vds/tools/" + tool + "/" + which + ".json"
	c := sjs.NewCompiler()
	if err := c.AddResource(url, doc); err != nil {
		panic(fmt.Sprintf("mcptools: %s %s schema: %v", tool, which, err))
	}
	s, err := c.Compile(url)
	if err != nil {
		panic(fmt.Sprintf("mcptools: %s %s schema: %v", tool, which, err))
	}
	return s
}

// decodeJSON turns a value as the JSON-RPC layer decoded it (a map, a
// json.RawMessage, nil) into the form the validator takes. Absent
// arguments are an empty object, as mcp-go treats them.
func decodeJSON(v any) (any, error) {
	if v == nil {
		return map[string]any{}, nil
	}
	raw, ok := v.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(v); err != nil {
			return nil, err
		}
	}
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return map[string]any{}, nil
	}
	return sjs.UnmarshalJSON(bytes.NewReader(raw))
}

// explainArgs returns "" when args satisfy the input schema, else one
// message for the model: every problem found, each saying what to change.
func (c *checker) explainArgs(args any) string {
	v, err := decodeJSON(args)
	if err != nil {
		return fmt.Sprintf("Invalid arguments for %s: they are not valid JSON (%v). Send a JSON object of arguments.", c.tool, err)
	}
	err = c.inC().Validate(v)
	if err == nil {
		return ""
	}
	var verr *sjs.ValidationError
	var parts []string
	if errors.As(err, &verr) {
		for _, leaf := range leaves(verr) {
			parts = append(parts, c.sentence(leaf, v))
		}
	}
	if len(parts) == 0 {
		parts = []string{err.Error()}
	}
	slices.Sort(parts)
	parts = slices.Compact(parts)
	return fmt.Sprintf("Invalid arguments for %s: %s. Correct the arguments and call %s again.", c.tool, strings.Join(parts, "; "), c.tool)
}

// leaves returns the innermost failures: the outer ones only say "the
// object failed", which tells the model nothing.
func leaves(e *sjs.ValidationError) []*sjs.ValidationError {
	if len(e.Causes) == 0 {
		return []*sjs.ValidationError{e}
	}
	var out []*sjs.ValidationError
	for _, c := range e.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}

var printer = message.NewPrinter(language.English)

// sentence explains one failure. Arguments are top-level properties, so
// the first element of the instance location names the argument.
func (c *checker) sentence(e *sjs.ValidationError, args any) string {
	name := ""
	if len(e.InstanceLocation) > 0 {
		name = e.InstanceLocation[0]
	}
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		var out []string
		for _, m := range k.Missing {
			out = append(out, fmt.Sprintf("%s is required (%s)", m, c.takes(m)))
		}
		return strings.Join(out, "; ")
	case *kind.AdditionalProperties:
		var out []string
		for _, p := range k.Properties {
			s := fmt.Sprintf("there is no argument %q", p)
			if guess := textfmt.Closest(p, c.argNames()); guess != "" {
				s += fmt.Sprintf(" (did you mean %s?)", guess)
			}
			out = append(out, s)
		}
		names := c.argNames()
		accepted := "no arguments"
		if len(names) > 0 {
			accepted = "only " + strings.Join(names, ", ")
		}
		return strings.Join(out, "; ") + "; " + c.tool + " takes " + accepted
	case *kind.Type:
		if name == "" {
			return "the arguments must be a JSON object, not " + article(k.Got)
		}
		s := fmt.Sprintf("%s must be %s, not %s", name, c.takes(name), article(k.Got))
		if k.Got == "null" {
			s += " (leave the argument out to leave it unset)"
		}
		return s
	case *kind.Enum:
		return fmt.Sprintf("%s must be %s, not %s", name, c.takes(name), quoteValue(k.Got))
	case *kind.Minimum, *kind.Maximum:
		return fmt.Sprintf("%s must be %s, not %s", name, c.takes(name), quoteValue(valueAt(args, name)))
	case *kind.MinLength, *kind.MaxLength:
		return fmt.Sprintf("%s is %s", name, e.ErrorKind.LocalizedString(printer))
	}
	if name == "" {
		return e.ErrorKind.LocalizedString(printer)
	}
	return name + ": " + e.ErrorKind.LocalizedString(printer)
}

func (c *checker) argNames() []string {
	if len(c.in.PropertyOrder) > 0 {
		return c.in.PropertyOrder
	}
	names := make([]string, 0, len(c.in.Properties))
	for n := range c.in.Properties {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// takes describes what an argument accepts, e.g. "a whole number from 1
// to 10" or "one of car, motorcycle, boat, tire_size".
func (c *checker) takes(name string) string {
	p, ok := c.in.Properties[name]
	if !ok {
		return "a value"
	}
	return describeType(p, true)
}

// describeType renders a property schema as words. withExample adds the
// schema's first example, which is what a model most often needs.
func describeType(p *jsonschema.Schema, withExample bool) string {
	if len(p.Enum) > 0 {
		vals := make([]string, len(p.Enum))
		for i, v := range p.Enum {
			vals[i] = fmt.Sprint(v)
		}
		return "one of " + strings.Join(vals, ", ")
	}
	var s string
	switch p.Type {
	case "integer":
		s = "a whole number"
	case "number":
		s = "a number"
	case "boolean":
		s = "true or false"
	case "string":
		s = "a string"
	default:
		s = "a " + p.Type
	}
	switch {
	case p.Minimum != nil && p.Maximum != nil:
		s += fmt.Sprintf(" from %s to %s", num(*p.Minimum), num(*p.Maximum))
	case p.Minimum != nil:
		s += fmt.Sprintf(" of %s or more", num(*p.Minimum))
	case p.Maximum != nil:
		s += fmt.Sprintf(" of at most %s", num(*p.Maximum))
	}
	if withExample && len(p.Examples) > 0 {
		s += fmt.Sprintf(" such as %s", quoteValue(p.Examples[0]))
	}
	return s
}

func num(f float64) string { return big.NewRat(1, 1).SetFloat64(f).RatString() }

// article names a JSON type with its article: "a string", "an array".
func article(jsonType string) string {
	switch jsonType {
	case "null":
		return "null"
	case "array", "integer", "object":
		return "an " + jsonType
	}
	return "a " + jsonType
}

// quoteValue renders a value the model sent, shortened so a huge value
// cannot make the message huge.
func quoteValue(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	const maxLen = 40
	if len(b) > maxLen {
		return string(b[:maxLen]) + "..."
	}
	return string(b)
}

func valueAt(args any, name string) any {
	if m, ok := args.(map[string]any); ok {
		return m[name]
	}
	return nil
}

// checkOutput reports whether structured content satisfies the output
// schema; the error is for the log, never for the model.
func (c *checker) checkOutput(structured any) error {
	v, err := decodeJSON(structured)
	if err != nil {
		return err
	}
	return c.outC().Validate(v)
}
