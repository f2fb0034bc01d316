package httpapi

import (
	"bytes"
	"net/http"
	"sync"

	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/vehicle"
)

// Envelope is the body of every successful response: {"data": ...}, with
// "meta" for paged lists.
type Envelope struct {
	Data any           `json:"data"`
	Meta *vehicle.Meta `json:"meta,omitempty"`
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// ok writes a 200 envelope.
func ok(w http.ResponseWriter, data any) {
	edge.WriteJSON(w, http.StatusOK, "application/json", Envelope{Data: data})
}
