package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestNotModifiedDocumented: the document has a 304 with ETag and
// Cache-Control on every catalog operation and on no other, and an
// If-None-Match header parameter beside it, so the validator holds the
// server's 304s to it.
func TestNotModifiedDocumented(t *testing.T) {
	t.Parallel()
	doc := loadDoc(t)
	catalogOps := 0
	for path, item := range doc.Paths.Map() {
		op := item.Get
		notModified := op.Responses.Status(http.StatusNotModified)
		param := op.Parameters.GetByInAndName("header", "If-None-Match")
		etag := op.Responses.Status(http.StatusOK).Value.Headers["ETag"]
		if (notModified == nil) != (param == nil) || (notModified == nil) != (etag == nil) {
			t.Errorf("%s: 304 %v, If-None-Match %v, 200 ETag %v: all or none", path, notModified != nil, param != nil, etag != nil)
		}
		if notModified == nil {
			continue
		}
		catalogOps++
		for _, h := range []string{"ETag", "Cache-Control", "X-Request-Id", "X-Quota-Used"} {
			if notModified.Value.Headers[h] == nil {
				t.Errorf("%s: the 304 lacks %s", path, h)
			}
		}
	}
	// 4 kinds x (list, makes, models, record) + body types, motorcycle
	// types, hull types, a car's tire sizes, a fitment's geometry and plus
	// sizes, a size lookup.
	if catalogOps != 23 {
		t.Errorf("%d operations document a 304, want the 23 catalog ones", catalogOps)
	}

	v := sharedValidator(t)
	hdr := http.Header{"X-Request-Id": {"r1"}, "Etag": {`"v3-0123456789abcdef"`}, "Cache-Control": {"private, max-age=60"}}
	for _, tc := range []struct {
		path   string
		header http.Header
		ok     bool
	}{
		{"/v1/cars/makes", hdr, true},
		{"/v1/cars/makes", http.Header{"X-Request-Id": {"r1"}, "Cache-Control": {"private, max-age=60"}}, false}, // no ETag
		{"/v1/me", hdr, false}, // never a 304
	} {
		err := v.Validate(httptest.NewRequest(http.MethodGet, tc.path, nil), http.StatusNotModified, tc.header, nil)
		if (err == nil) != tc.ok {
			t.Errorf("304 to %s with %v: %v, want ok %v", tc.path, tc.header, err, tc.ok)
		}
	}
}
