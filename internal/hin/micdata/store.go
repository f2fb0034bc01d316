package micdata

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/vds-dev/vds/internal/hin"
	"github.com/vds-dev/vds/internal/store"
)

// Import reads a MIC list (CSV or JSON, see hin.ReadList) and stores it
// with its provenance, replacing the previous list, all or nothing.
func Import(ctx context.Context, st store.MICStore, data []byte, source string, now time.Time) (store.MICList, error) {
	list, err := hin.ReadList(bytes.NewReader(data))
	if err != nil {
		return store.MICList{}, fmt.Errorf("%s: %w", source, err)
	}
	sum := sha256.Sum256(data)
	return st.PutMICList(ctx, store.MICList{Source: source, SHA256: hex.EncodeToString(sum[:]), ImportedAt: now}, list)
}

// Embedded describes the embedded list, which a server decodes with until
// a list is imported.
var Embedded = sync.OnceValue(func() store.MICList {
	sum := sha256.Sum256(gz)
	return store.MICList{Source: Source, SHA256: hex.EncodeToString(sum[:]), Codes: Decoder().Len()}
})

// Load returns a decoder over the stored MIC list, or the embedded one when
// none is stored; known is the list the caller has, and nil, nil is
// returned when it is still the one.
func Load(ctx context.Context, st store.MICStore, known *store.MICList) (*store.MICList, *hin.Decoder, error) {
	meta, err := st.MICList(ctx)
	if errors.Is(err, store.ErrNotFound) {
		meta, err = Embedded(), nil
	}
	if err != nil || (known != nil && *known == meta) {
		return nil, nil, err
	}
	if meta.Source == Source && meta.ImportedAt.IsZero() {
		return &meta, Decoder(), nil
	}
	list, err := st.Manufacturers(ctx)
	if err != nil {
		return nil, nil, err
	}
	return &meta, hin.NewDecoder(list), nil
}
