package apidocs

import (
	"encoding/json"
	"fmt"
	"strings"
)

// sample is one real answer of the server (httpapi.Sample).
type sample struct {
	Operation string          `json:"operation"`
	Status    int             `json:"status"`
	Request   string          `json:"request"`
	Items     int             `json:"items"`
	Body      json.RawMessage `json:"body"`
}

func parseSamples(b []byte) ([]sample, error) {
	var out []sample
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("apidocs: read the samples: %w", err)
	}
	return out, nil
}

// examples collects, for each component schema's field, the first value
// the samples give it that is not null or empty.
func (d *document) examples(samples []sample) map[string]map[string]any {
	out := map[string]map[string]any{}
	eps := d.endpoints()
	for _, s := range samples {
		for _, e := range eps {
			if e.Op.ID != s.Operation {
				continue
			}
			var v any
			if json.Unmarshal(s.Body, &v) != nil {
				continue
			}
			for _, mt := range d.resolve(e.Op.Responses[fmt.Sprint(s.Status)]).Content {
				d.collect(mt.Schema, v, out)
			}
		}
	}
	return out
}

func (d *document) collect(s jsonSchema, v any, out map[string]map[string]any) {
	for _, sub := range append(s.AllOf, s.AnyOf...) {
		d.collect(sub, v, out)
	}
	if s.Items != nil {
		items, _ := v.([]any)
		for _, it := range items {
			d.collect(*s.Items, it, out)
		}
	}
	name, ok := strings.CutPrefix(s.Ref, "#/components/schemas/")
	obj, isObj := v.(map[string]any)
	if !ok || !isObj {
		return
	}
	s = d.Components.Schemas[name]
	for _, p := range s.Properties {
		fv, ok := obj[p.Name]
		if !ok {
			// An anyOf alternative this value is not.
			continue
		}
		if _, done := out[name][p.Name]; !done && !empty(fv) {
			if out[name] == nil {
				out[name] = map[string]any{}
			}
			out[name][p.Name] = fv
		}
		d.collect(p.Schema, fv, out)
	}
}

func empty(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		return v == ""
	case []any:
		return len(v) == 0
	case map[string]any:
		return true // its fields have examples of their own
	}
	return false
}

// exampleText is an example value as JSON, cut short: a table cell.
func exampleText(v any) string {
	if items, ok := v.([]any); ok && len(items) > 1 {
		v = items[:1]
	}
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	if r := []rune(string(b)); len(r) > 60 {
		return string(r[:57]) + "…"
	}
	return string(b)
}
