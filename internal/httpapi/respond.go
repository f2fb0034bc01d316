package httpapi

import (
	"bytes"
	"net/http"
	"sync"

	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/vehicle"
)

// Envelope is every successful body: {"data": ...}, with "meta" for pages.
type Envelope struct {
	Data any           `json:"data"`
	Meta *vehicle.Meta `json:"meta,omitempty"`
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func ok(w http.ResponseWriter, data any) {
	edge.WriteJSON(w, http.StatusOK, "application/json", Envelope{Data: data})
}
