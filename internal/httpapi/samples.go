package httpapi

import (
	_ "embed"
	"encoding/json"
)

// Sample is one real answer of the server from the demo catalog, shown by
// the reference; TestSamples keeps static/samples.json true.
type Sample struct {
	Operation string `json:"operation"`
	Status    int    `json:"status"`
	Request   string `json:"request"`
	// Items is the length of a complete list cut to its first items; 0 when whole.
	Items int             `json:"items,omitempty"`
	Body  json.RawMessage `json:"body"`
}

//go:embed static/samples.json
var samplesJSON []byte

// Samples returns static/samples.json: a JSON array of Sample.
func Samples() []byte { return samplesJSON }
