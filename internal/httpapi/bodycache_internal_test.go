package httpapi

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/vds-dev/vds/internal/edge"
)

// TestBodyCacheBounds: the cache stays within its bytes, compressed copies
// included, dropping the least recently used; a key whose target differs
// is a miss; an answer over an eighth of the cache is served, not kept.
func TestBodyCacheBounds(t *testing.T) {
	t.Parallel()
	body := []byte(strings.Repeat(`{"make":"Toyota"}`, 60)) // 1,020 bytes
	one := (&cachedBody{target: "/v1/cars?n=0"}).cost(len(body))
	c := newBodyCache(8*one + 100)
	at := func(path string) *target { return &target{2: path} }
	hd := func() http.Header {
		return http.Header{"Content-Type": {"application/json"}, "Link": {"</v1/cars?page=2>"}}
	}
	for i := range 8 {
		c.add(uint64(i), "/v1/cars?n="+string(rune('0'+i)), hd(), body)
	}
	if c.get(0, at("/v1/cars?n=0")) == nil || c.evictions.Load() != 0 {
		t.Fatalf("eight answers in room for eight: evictions %d", c.evictions.Load())
	}
	// Key 0 was used last: a ninth answer drops key 1.
	e := c.add(8, "/v1/cars?n=8", hd(), body)
	if c.get(1, at("/v1/cars?n=1")) != nil || c.get(0, at("/v1/cars?n=0")) == nil || c.evictions.Load() != 1 {
		t.Errorf("after a ninth: key 1 kept or key 0 dropped (evictions %d)", c.evictions.Load())
	}
	if e.contentType != "application/json" || len(e.header) != 1 || e.header[0].key != "Link" || len(e.header[0].values) != 1 {
		t.Errorf("kept headers %v, type %q", e.header, e.contentType)
	}
	if c.get(0, at("/v1/cars?other")) != nil {
		t.Error("a key's answer was served for another target")
	}
	z := c.in(e, edge.CodingZstd, nil).body.Bytes
	dec, _ := zstd.NewReader(nil)
	defer dec.Close()
	if plain, err := dec.DecodeAll(z, nil); err != nil || !bytes.Equal(plain, body) || &c.in(e, edge.CodingZstd, nil).body.Bytes[0] != &z[0] {
		t.Errorf("zstd copy decodes to %d bytes (%v), or was made twice", len(plain), err)
	}
	if c.size > c.max || c.size < 7*one {
		t.Errorf("size %d, max %d", c.size, c.max)
	}
	before := c.evictions.Load()
	big := c.add(9, "/v1/cars?big", hd(), bytes.Repeat(body, 2))
	if c.get(9, at("/v1/cars?big")) != nil || c.evictions.Load() != before || !bytes.Equal(c.in(big, "", nil).body.Bytes, bytes.Repeat(body, 2)) {
		t.Error("an answer over an eighth of the cache was kept, or evicted others")
	}
}

// TestBodyCacheTargetsAndTags: a target matches the joined text it names
// and no other split of it, and a coding keeps the tag it was made with.
func TestBodyCacheTargetsAndTags(t *testing.T) {
	t.Parallel()
	tg := target{"http://", "example.com", "/v1/cars", "?", "make=Toyota"}
	for s, want := range map[string]bool{
		"http://example.com/v1/cars?make=Toyota": true, tg.String(): true,
		"http://example.com/v1/cars?make=Toyot": false, "http://example.com/v1/cars?make=Toyotas": false,
		"https://example.com/v1/cars?make=Toyota": false, "": false,
	} {
		if tg.is(s) != want {
			t.Errorf("target %q is %q: %v, want %v", tg.String(), s, !want, want)
		}
	}
	c := newBodyCache(1 << 20)
	e := c.add(1, tg.String(), http.Header{"Content-Type": {"application/json"}}, []byte(`{"data":[]}`))
	tag := catalogTag(3, 1, edge.CodingGzip)
	v := c.in(e, edge.CodingGzip, tag.bytes())
	if len(v.etag) != 1 || v.etag[0] != string(tag.bytes()) || c.in(e, edge.CodingGzip, nil) != v {
		t.Errorf("gzip variant's tag %q, want %s, kept once", v.etag, tag.bytes())
	}
	if plain := c.in(e, "", nil); plain.etag != nil || string(plain.body.Bytes) != `{"data":[]}` {
		t.Errorf("plain variant %q with tag %q", plain.body.Bytes, plain.etag)
	}
}
