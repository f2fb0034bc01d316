package cli

import (
	"bytes"
	"testing"
)

func TestAPIPath(t *testing.T) {
	for _, tt := range []struct{ arg, want string }{
		{"cars", "/v1/cars"},
		{"/cars", "/v1/cars"},
		{"/v1/cars", "/v1/cars"},
		{"v1/cars?make=Toyota", "/v1/cars?make=Toyota"},
		{"/v1", "/v1"},
		{"/v1x", "/v1/v1x"},
		{" me ", "/v1/me"},
	} {
		if got, err := apiPath(tt.arg); err != nil || got != tt.want {
			t.Errorf("apiPath(%q) = %q, %v; want %q", tt.arg, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "https://example.com/v1/me", "http://127.0.0.1:8080/v1/me", "//host/v1/me", "%zz"} {
		if got, err := apiPath(bad); err == nil || exitCode(err) != ExitUsage {
			t.Errorf("apiPath(%q) = %q, %v; want a usage error", bad, got, err)
		}
	}
}

func TestRunJQ(t *testing.T) {
	code, err := compileJQ(`.data[] | .name, .count`)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := runJQ(code, []byte(`{"data":[{"name":"Ford","count":46},{"name":"Kia","count":2.5}]}`), &out); err != nil {
		t.Fatal(err)
	}
	if want := "Ford\n46\nKia\n2.5\n"; out.String() != want {
		t.Errorf("output %q, want %q", out.String(), want)
	}
	out.Reset()
	code, _ = compileJQ(`.data | map(select(.count > 10))`)
	if err := runJQ(code, []byte(`{"data":[{"name":"Ford","count":46},{"name":"Kia","count":2}]}`), &out); err != nil || out.String() != `[{"count":46,"name":"Ford"}]`+"\n" {
		t.Errorf("output %q, %v", out.String(), err)
	}
	if err := runJQ(code, []byte(`{"data":1}`), &out); err == nil {
		t.Errorf("map over a number: no error")
	}
	if _, err := compileJQ(`.data[`); err == nil || exitCode(err) != ExitUsage {
		t.Errorf("bad expression: %v", err)
	}
}
