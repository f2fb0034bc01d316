package httpapi

import (
	"bytes"
	"container/list"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/vds-dev/vds/internal/edge"
)

// bodyCache keeps catalog answers rendered, and compressed once per coding
// a client asked for, by the key their ETag derives from (catalogKey) and
// the origin their Link header names, the
// least recently used going first past max bytes (server.body_cache_mb).
type bodyCache struct {
	max                     int64
	hits, misses, evictions atomic.Int64
	mu                      sync.Mutex
	size                    int64
	byKey                   map[uint64]*list.Element
	lru                     list.List // of *cachedBody, the latest used in front
}

// BodyCacheStats are the answer cache's counters for /metrics.
type BodyCacheStats struct {
	Hits, Misses, Evictions, Bytes int64
}

// cachedBody is one 200 answer and its headers.
type cachedBody struct {
	key uint64
	// target is the origin, path and query the answer is for: keys are
	// 64-bit hashes, so a hit is checked against it.
	target      string
	contentType string
	// header holds the answer's other header fields, as pairs: copying
	// them into an answer's map then iterates no map.
	header []headerField
	body   []byte
	// mu is held while a coding is made; codings holds the body as sent
	// in none, gzip and zstd (codingIndex), once asked for.
	mu      sync.Mutex
	codings [3]atomic.Pointer[variant]
	stored  bool
}

// variant is a kept answer in one coding, with its ETag value when the
// answer is a catalog one (etag nil otherwise).
type variant struct {
	body *edge.Body
	etag []string
}

func codingIndex(coding string) int {
	switch coding {
	case edge.CodingGzip:
		return 1
	case edge.CodingZstd:
		return 2
	}
	return 0
}

type headerField struct {
	key    string
	values []string
}

// entryOverhead approximates an entry's bytes beside its bodies.
const entryOverhead = 256

func newBodyCache(maxBytes int64) *bodyCache {
	return &bodyCache{max: maxBytes, byKey: map[uint64]*list.Element{}}
}

// target is what an answer is for, in parts joined: a catalog answer's is
// scheme, host, path, "?" and query; a recall answer's its path alone.
type target [5]string

func (t *target) String() string { return strings.Join(t[:], "") }

// is compares t with s without joining t, which would allocate.
func (t *target) is(s string) bool {
	for _, part := range t {
		if !strings.HasPrefix(s, part) {
			return false
		}
		s = s[len(part):]
	}
	return s == ""
}

// get returns the answer kept for key and t, or nil.
func (c *bodyCache) get(key uint64, t *target) *cachedBody {
	c.mu.Lock()
	el, ok := c.byKey[key]
	if ok && t.is(el.Value.(*cachedBody).target) {
		c.lru.MoveToFront(el)
		c.mu.Unlock()
		c.hits.Add(1)
		return el.Value.(*cachedBody)
	}
	c.mu.Unlock()
	c.misses.Add(1)
	return nil
}

// add keeps a copy of a rendered answer, unless it would not fit, and
// returns it.
func (c *bodyCache) add(key uint64, target string, header http.Header, body []byte) *cachedBody {
	e := &cachedBody{key: key, target: target, contentType: header.Get("Content-Type"), body: bytes.Clone(body)}
	header.Del("Content-Type")
	header.Del("Content-Length")
	for k, v := range header {
		// Values are clipped: a header map's Add must not write into them.
		e.header = append(e.header, headerField{k, slices.Clip(v)})
	}
	n := e.cost(len(e.body))
	if n > c.max/8 {
		return e
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.byKey[key]; ok {
		c.remove(old)
	}
	e.stored = true
	c.byKey[key] = c.lru.PushFront(e)
	c.size += n
	c.evict()
	return e
}

func (e *cachedBody) cost(bodyBytes int) int64 {
	return int64(entryOverhead + len(e.target) + bodyBytes)
}

// in returns the body in coding ("" for none), compressing it on first
// use; tag is the catalog answer's ETag in coding, or nil.
func (c *bodyCache) in(e *cachedBody, coding string, tag []byte) *variant {
	slot := &e.codings[codingIndex(coding)]
	if v := slot.Load(); v != nil {
		return v
	}
	e.mu.Lock()
	v := slot.Load()
	made := v == nil
	if made {
		b := e.body
		if coding != "" {
			b = encode(coding, e.body)
		}
		v = &variant{body: edge.NewBody(b, coding)}
		if tag != nil {
			v.etag = []string{string(tag)}
		}
		slot.Store(v)
	}
	e.mu.Unlock()
	if made && coding != "" && e.stored {
		c.mu.Lock()
		if el, ok := c.byKey[e.key]; ok && el.Value == e {
			c.size += int64(len(v.body.Bytes))
			c.evict()
		}
		c.mu.Unlock()
	}
	return v
}

// evict drops the least recently used answers while over max; c.mu held.
func (c *bodyCache) evict() {
	for c.size > c.max {
		c.remove(c.lru.Back())
		c.evictions.Add(1)
	}
}

func (c *bodyCache) remove(el *list.Element) {
	e := c.lru.Remove(el).(*cachedBody)
	delete(c.byKey, e.key)
	e.mu.Lock()
	n := e.cost(len(e.body))
	for i := 1; i < len(e.codings); i++ {
		if v := e.codings[i].Load(); v != nil {
			n += int64(len(v.body.Bytes))
		}
	}
	e.mu.Unlock()
	c.size -= n
}

// BodyCacheStats reads the answer cache's counters.
func (h *Handler) BodyCacheStats() BodyCacheStats {
	c := h.bodies
	c.mu.Lock()
	size := c.size
	c.mu.Unlock()
	return BodyCacheStats{Hits: c.hits.Load(), Misses: c.misses.Load(), Evictions: c.evictions.Load(), Bytes: size}
}

// zstdEncoder is shared: EncodeAll may be called concurrently.
var zstdEncoder = sync.OnceValue(func() *zstd.Encoder {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithLowerEncoderMem(true))
	if err != nil {
		panic("httpapi: zstd: " + err.Error()) // only for invalid options
	}
	return enc
})

func encode(coding string, body []byte) []byte {
	if coding == edge.CodingZstd {
		return zstdEncoder().EncodeAll(body, make([]byte, 0, len(body)/3))
	}
	var buf bytes.Buffer
	buf.Grow(len(body) / 3)
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // a valid level
	_, _ = zw.Write(body)
	_ = zw.Close()
	return buf.Bytes()
}

// capture holds what a catalog handler writes, for the cache.
type capture struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (c *capture) Header() http.Header { return c.header }

func (c *capture) WriteHeader(status int) {
	if c.status == 0 {
		c.status = status
	}
}

func (c *capture) Write(b []byte) (int, error) {
	c.WriteHeader(http.StatusOK)
	return c.body.Write(b)
}

var capturePool = sync.Pool{New: func() any { return new(capture) }}

// cached answers a catalog request from the cache, or runs next and keeps
// a 200 answer; any other status goes out as next wrote it. w settles the
// charge when the status is written, hit or miss alike.
func (h *Handler) cached(w *admitted, r *http.Request, next http.HandlerFunc, key uint64, coding string) {
	// The Link header of a page names the origin the client sees.
	scheme, host := edge.OriginParts(r, h.publicURL)
	t := target{scheme, host, r.URL.Path, "?", r.URL.RawQuery}
	key = fnvString(fnvString(key, scheme), host)
	e := h.bodies.get(key, &t)
	if e == nil {
		c := capturePool.Get().(*capture)
		c.header, c.status = http.Header{}, 0
		c.body.Reset()
		defer capturePool.Put(c)
		next(c, r)
		if c.status != http.StatusOK {
			hd := w.Header()
			maps.Copy(hd, c.header)
			w.WriteHeader(c.status)
			_, _ = w.Write(c.body.Bytes())
			return
		}
		e = h.bodies.add(key, t.String(), c.header, c.body.Bytes())
	}
	tag := w.tag.bytes()
	v := h.bodies.in(e, coding, tag)
	if v.etag != nil && v.etag[0] == string(tag) {
		w.etagValue = v.etag
	}
	h.send(w, e, v)
}

// sendCached writes a kept answer in coding, the one negotiated for w.
func (h *Handler) sendCached(w http.ResponseWriter, e *cachedBody, coding string) {
	h.send(w, e, h.bodies.in(e, coding, nil))
}

func (h *Handler) send(w http.ResponseWriter, e *cachedBody, v *variant) {
	hd := w.Header()
	for _, f := range e.header {
		hd[f.key] = f.values
	}
	edge.SendBody(w, http.StatusOK, e.contentType, v.body)
}
