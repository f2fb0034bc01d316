package storetest

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/hin"
	"github.com/vds-dev/vds/internal/store"
)

// testMICList: an import replaces the list and its provenance at once, and
// a failing one leaves the previous list whole.
func testMICList(t *testing.T, s store.Store) {
	ctx := context.Background()
	if _, err := s.MICList(ctx); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("MICList of an empty store: %v, want ErrNotFound", err)
	}
	first := []hin.Manufacturer{
		{MIC: "BWC", Company: "BOSTON WHALER INC", Address: "100 WHALER WAY", City: "EDGEWATER", State: "FL"},
		{MIC: "4WN", Company: "FOUR WINNS INC", City: "CADILLAC", State: "MI"},
		{MIC: "gvz", Company: "LOWER CASE"},
	}
	at := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	meta := store.MICList{Source: "mic.csv", SHA256: "abc", ImportedAt: at}
	if _, err := s.PutMICList(ctx, meta, first); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutMICList(ctx, store.MICList{Source: "bad.csv", ImportedAt: at},
		[]hin.Manufacturer{{MIC: "AAA", Company: "A"}, {MIC: "AAA", Company: "B"}}); err == nil {
		t.Fatal("a list with a MIC twice was stored")
	}
	got, err := s.MICList(ctx)
	list, lerr := s.Manufacturers(ctx)
	want := store.MICList{Source: "mic.csv", SHA256: "abc", Codes: 3, ImportedAt: at}
	if err != nil || lerr != nil || got != want {
		t.Fatalf("MICList = %+v, %v; want %+v", got, err, want)
	}
	if wantList := []hin.Manufacturer{first[1], first[0], first[2]}; !reflect.DeepEqual(list, wantList) {
		t.Fatalf("list = %+v, want %+v", list, wantList)
	}
	second := []hin.Manufacturer{{MIC: "SER", Company: "SEA RAY BOATS"}}
	if _, err := s.PutMICList(ctx, store.MICList{Source: "embedded", SHA256: "def", ImportedAt: at.Add(time.Hour)}, second); err != nil {
		t.Fatal(err)
	}
	got, err = s.MICList(ctx)
	list, lerr = s.Manufacturers(ctx)
	if err != nil || lerr != nil || got.Source != "embedded" || got.Codes != 1 || !reflect.DeepEqual(list, second) {
		t.Fatalf("after a second import: %+v %+v %v %v", got, list, err, lerr)
	}
}
