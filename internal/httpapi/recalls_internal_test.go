package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/upstream"
)

// A recall answer with its list kept encoded is byte for byte the answer
// encoded whole, even with text that looks like the list's field.
func TestOkRecallsSplicesTheEncodedList(t *testing.T) {
	t.Parallel()
	s := func(v string) *string { return &v }
	rep := lookup.MotorcycleRecalls{Note: `"recalls":[] & <b>`, Source: "files", Recalls: []upstream.Recall{
		{CampaignNumber: "20V001000", Summary: s(`"recalls":[] <fuel> & "pump"`), ParkIt: true},
		{CampaignNumber: "21V002000", Remedy: s("Dealers replace it.")},
	}}
	var list bytes.Buffer
	enc := json.NewEncoder(&list)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rep.Recalls); err != nil {
		t.Fatal(err)
	}
	whole := httptest.NewRecorder()
	okUpstream(whole, upstream.Meta{}, rep)
	bare := rep
	bare.Recalls = []upstream.Recall{}
	var spliced bytes.Buffer
	if !spliceRecalls(&spliced, bare, bytes.TrimSpace(list.Bytes())) || whole.Body.String() != spliced.String() {
		t.Errorf("spliced:\n%s\nwhole:\n%s", spliced.String(), whole.Body)
	}
}
