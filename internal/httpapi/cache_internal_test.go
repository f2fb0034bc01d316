package httpapi

import (
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/catalog"
)

func TestCatalogTag(t *testing.T) {
	v := catalog.Version{Number: 7, PublishedAt: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}
	tag := func(v catalog.Version, path, query, coding string) string {
		t.Helper()
		et := catalogTag(v.Number, catalogKey(v, path, query), coding)
		return string(et.bytes())
	}
	base := tag(v, "/v1/cars", "make=Toyota&page=2", "")
	if len(base) != len(`"v7-0123456789abcdef"`) || base[:4] != `"v7-` || base[len(base)-1] != '"' {
		t.Fatalf("tag %s", base)
	}
	if same := tag(v, "/v1/cars", "page=2&&make=Toyota", ""); same != base {
		t.Errorf("reordered query: %s, want %s", same, base)
	}
	republished := v
	republished.PublishedAt = republished.PublishedAt.Add(time.Second)
	for name, other := range map[string]string{
		"version":      tag(catalog.Version{Number: 8, PublishedAt: v.PublishedAt}, "/v1/cars", "make=Toyota&page=2", ""),
		"published_at": tag(republished, "/v1/cars", "make=Toyota&page=2", ""),
		"path":         tag(v, "/v1/boats", "make=Toyota&page=2", ""),
		"query value":  tag(v, "/v1/cars", "make=Toyota&page=3", ""),
		"query pair":   tag(v, "/v1/cars", "make=Toyota&page=2&page=2", ""),
		"gzip":         tag(v, "/v1/cars", "make=Toyota&page=2", "gzip"),
		"zstd":         tag(v, "/v1/cars", "make=Toyota&page=2", "zstd"),
	} {
		if other == base {
			t.Errorf("another %s gives the same tag %s", name, base)
		}
	}
}

func TestIfNoneMatch(t *testing.T) {
	et := catalogTag(3, catalogKey(catalog.Version{Number: 3}, "/v1/cars/makes", ""), "")
	tag := string(et.bytes())
	for _, tc := range []struct {
		name   string
		fields []string
		want   noneMatch
	}{
		{"absent", nil, noCondition},
		{"exact", []string{tag}, matchesTag},
		{"weak", []string{"W/" + tag}, matchesTag},
		{"in a list", []string{`"a", W/"b",` + tag}, matchesTag},
		{"on a second line", []string{`"a"`, " " + tag + " "}, matchesTag},
		{"star", []string{" * "}, noCondition},
		{"star then the tag", []string{"*", tag}, matchesTag},
		{"another tag", []string{`"v3-0000000000000000"`}, noCondition},
		{"unquoted", []string{tag[1 : len(tag)-1]}, noCondition},
		{"junk then the tag", []string{`junk, ` + tag}, matchesTag},
		{"tag inside another", []string{`"x` + tag[1:]}, noCondition},
		{"unterminated", []string{`"v3-`}, noCondition},
		{"empty", []string{""}, noCondition},
	} {
		if got := et.condition(tc.fields); got != tc.want {
			t.Errorf("%s: condition(%q) = %d, want %d", tc.name, tc.fields, got, tc.want)
		}
	}
}

// The tag costs nothing on the heap: it is computed and compared on the
// stack; only the header value is allocated, when the answer is sent.
func TestCatalogTagAllocations(t *testing.T) {
	v := catalog.Version{Number: 12, PublishedAt: time.Now()}
	fields := []string{`"v11-0000000000000000", W/"v12-0000000000000000"`}
	allocs := testing.AllocsPerRun(100, func() {
		et := catalogTag(v.Number, catalogKey(v, "/v1/cars", "make=Toyota&model=Camry&page=2"), "gzip")
		if et.condition(fields) != noCondition {
			t.Fatal("matched")
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per tag, want 0", allocs)
	}
}
