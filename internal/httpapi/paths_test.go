package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestWrongSubPaths: a word where a record's uuid goes is a path the API
// does not have, answered like any unknown path (404 not_found, naming
// the collection's paths), not invalid_uuid; a segment with a digit is
// still a mistyped id. Neither is charged.
func TestWrongSubPaths(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	before := f.quotaUsed(t)
	for _, tc := range []struct {
		path   string
		status int
		code   string
		// detail holds these.
		detail []string
	}{
		{"/v1/boats/types", 404, "not_found", []string{"Under /v1/boats: /v1/boats/makes, /v1/boats/models, /v1/boats/hull-types, /v1/boats/{uuid};"}},
		{"/v1/cars/Toyota", 404, "not_found", []string{"/v1/cars/body-types", "/v1/cars/{uuid}/tire-sizes", "/v1/cars/{uuid}/recalls"}},
		{"/v1/motorcycles/hull-types", 404, "not_found", []string{"/v1/motorcycles/types"}},
		{"/v1/tire-sizes/sizes", 404, "not_found", []string{"/v1/tire-sizes/{uuid}/geometry"}},
		{"/v1/cars/types/recalls", 404, "not_found", []string{"Under /v1/cars:"}},
		{"/v1/tire-sizes/xyz/geometry", 404, "not_found", []string{"Under /v1/tire-sizes:"}},
		{"/v1/cars/foo/bar", 404, "not_found", []string{"Under /v1/cars:"}},
		{"/v1/motorcycles/x/y", 404, "not_found", []string{"Under /v1/motorcycles:"}},
		{"/v1/trucks/makes", 404, "not_found", []string{"see /v1/openapi.json for the list"}},
		{"/v1/boats/12345", 400, "invalid_uuid", []string{`uuid "12345" is not a UUID`}},
		{"/v1/cars/6f1c1d1e-52a3/recalls", 400, "invalid_uuid", []string{"36-character form"}},
		{"/v1/tire-sizes/6f1c1d1e52a34c559d7e0b5a3f2c9e41", 400, "invalid_uuid", []string{"36-character form"}},
	} {
		resp, p := f.getRaw(t, tc.path)
		if resp.StatusCode != tc.status || p.Code != tc.code {
			t.Errorf("GET %s: %d %s, want %d %s (%s)", tc.path, resp.StatusCode, p.Code, tc.status, tc.code, p.Detail)
			continue
		}
		for _, want := range tc.detail {
			if !strings.Contains(p.Detail, want) {
				t.Errorf("GET %s: detail %q lacks %q", tc.path, p.Detail, want)
			}
		}
	}
	if after := f.quotaUsed(t); after != before {
		t.Errorf("X-Quota-Used went from %s to %s: a refused path was charged", before, after)
	}
	// The same words without a token are a 401: the API's shape is not
	// probed anonymously.
	resp, err := http.Get(f.url + "/v1/boats/types")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("GET /v1/boats/types without a token: %d, want 401", resp.StatusCode)
	}
}
