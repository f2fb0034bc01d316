// Package micdata embeds the US Coast Guard's list of manufacturer
// identification codes (16,216 codes; provenance in docs/data.md), which a
// server loads on its first start and vds hin decode reads offline.
package micdata

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"sync"

	"github.com/vds-dev/vds/internal/hin"
)

//go:embed uscg-mic.csv.gz
var gz []byte

// Source names the embedded list in its provenance.
const Source = "US Coast Guard MIC list (embedded, snapshot no later than 2023-12-04)"

// List reads the embedded list afresh. A server decodes with Decoder,
// which packs it, and does not keep the list.
func List() []hin.Manufacturer {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		panic("micdata: " + err.Error())
	}
	list, err := hin.ReadList(zr)
	if err != nil {
		panic("micdata: " + err.Error())
	}
	return list
}

// Decoder decodes HINs with the embedded list; built once.
var Decoder = sync.OnceValue(func() *hin.Decoder { return hin.NewDecoder(List()) })
