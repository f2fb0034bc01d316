package httpapi

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/vds-dev/vds/internal/buildinfo"
	"github.com/vds-dev/vds/internal/catalog"
)

// cacheRule says what clients may keep of a route's answers (docs/api.md).
type cacheRule uint8

const (
	// cacheUnset sends no Cache-Control.
	cacheUnset cacheRule = iota
	// cacheCatalog depends only on the catalog version and the request: a
	// strong ETag, and a 304 for the current one that the quota does not count.
	cacheCatalog
	// cacheNever is an answer about the caller's account: no-store.
	cacheNever
)

// Shared Cache-Control values (see edge.AddVary).
var noStore = []string{"no-store"}

func maxAgeValue(d time.Duration) []string {
	return []string{"private, max-age=" + strconv.FormatInt(int64(d/time.Second), 10)}
}

// FNV-1a, 64 bits, inlined: hash/fnv would allocate its state per request.
const (
	fnvOffset uint64 = 14695981039346656037
	fnvPrime  uint64 = 1099511628211
)

func fnvString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime
	}
	return h
}

func fnvUint(h, v uint64) uint64 {
	for range 8 {
		h ^= v & 0xff
		h *= fnvPrime
		v >>= 8
	}
	return h
}

// buildSeed ties every tag to the build, which may encode differently.
var buildSeed = func() uint64 {
	bi := buildinfo.Get()
	return fnvString(fnvOffset, bi.Version+"\x00"+bi.Commit+"\x00"+bi.Date)
}()

// entityTag is a catalog answer's strong validator, quotes included:
// "v<catalog version>-<16 hex digits>".
type entityTag struct {
	b [48]byte
	n int
}

// catalogKey hashes the build, catalog version and publication time, path
// and query (pairs summed, so their order does not count): all a catalog
// answer's bytes depend on, and the body cache's key.
func catalogKey(v catalog.Version, path, rawQuery string) uint64 {
	h := fnvUint(buildSeed, uint64(v.Number))
	h = fnvUint(h, uint64(v.PublishedAt.UnixNano()))
	h = fnvUint(h, uint64(len(path)))
	h = fnvString(h, path)
	var pairs uint64
	for rawQuery != "" {
		var pair string
		pair, rawQuery, _ = strings.Cut(rawQuery, "&")
		if pair != "" { // a=1&&b=2 parses as a=1&b=2
			pairs += fnvString(fnvOffset, pair)
		}
	}
	return fnvUint(h, pairs)
}

// catalogTag is the strong tag of the answer of key in a content coding:
// each coding is its own representation, so its own tag.
func catalogTag(version int64, key uint64, coding string) entityTag {
	h := fnvString(key, coding)
	var t entityTag
	b := append(t.b[:0], `"v`...)
	b = strconv.AppendInt(b, version, 10)
	b = append(b, '-')
	const hex = "0123456789abcdef"
	for shift := 60; shift >= 0; shift -= 4 {
		b = append(b, hex[h>>uint(shift)&0xf])
	}
	b = append(b, '"')
	t.n = len(b)
	return t
}

func (t *entityTag) bytes() []byte { return t.b[:t.n] }

// noneMatch is how an If-None-Match field (all its lines) relates to tag.
type noneMatch uint8

const (
	// noCondition: no field, or no tag in it is current; answer in full.
	noCondition noneMatch = iota
	// matchesTag: the client holds the current answer.
	matchesTag
)

// condition reads If-None-Match with RFC 9110's weak comparison, skipping
// elements that are not entity tags. "*" is no condition: whether there is
// an answer is what a 200 charges for (docs/api.md, Caching).
func (t *entityTag) condition(fields []string) noneMatch {
	tag := t.bytes()
	for _, f := range fields {
		for {
			f = strings.TrimLeft(f, " \t,")
			f = strings.TrimPrefix(f, "W/")
			if f == "" {
				break
			}
			if f[0] != '"' {
				_, f, _ = strings.Cut(f, ",")
				continue
			}
			end := strings.IndexByte(f[1:], '"')
			if end < 0 {
				break
			}
			if f[:end+2] == string(tag) {
				return matchesTag
			}
			f = f[end+2:]
		}
	}
	return noCondition
}

// notModified answers a request whose If-None-Match names the current tag.
func notModified(w http.ResponseWriter, _ *http.Request) {
	w.WriteHeader(http.StatusNotModified)
}
