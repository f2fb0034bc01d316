package edge

import (
	"net/url"
	"strings"
	"testing"
)

// redactQueryBefore is redactQuery written plainly, with a split at every
// separator, url.QueryUnescape and strings.ToLower on every part: the
// behaviour the allocation-free one keeps.
func redactQueryBefore(q string) string {
	var b strings.Builder
	parts := strings.Split(strings.ReplaceAll(q, ";", "&"), "&")
	seps := strings.Map(func(r rune) rune {
		if r == '&' || r == ';' {
			return r
		}
		return -1
	}, q)
	for i, part := range parts {
		name, _, _ := strings.Cut(part, "=")
		if secretParamBefore(part, name) {
			b.WriteString(name + "=REDACTED")
		} else {
			b.WriteString(part)
		}
		if i < len(seps) {
			b.WriteByte(seps[i])
		}
	}
	s := b.String()
	if len(s) > maxLoggedQuery {
		s = s[:maxLoggedQuery] + "...(truncated)"
	}
	return s
}

func secretParamBefore(part, name string) bool {
	if plain, err := url.QueryUnescape(part); err == nil {
		part = plain
	}
	if strings.Contains(strings.ToLower(part), "vds_") {
		return true
	}
	if plain, err := url.QueryUnescape(name); err == nil {
		name = plain
	}
	name = strings.ToLower(name)
	for _, w := range secretWords {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

var redactCases = []struct{ q, want string }{
	{"", ""},
	{"make=Toyota", "make=Toyota"},
	{"make=Toyota&model=Camry&page=2", "make=Toyota&model=Camry&page=2"},
	{"&&a&", "&&a&"},
	{"make=Ford&api_key=k1&Token=k2&q=vds_k3", "make=Ford&api_key=REDACTED&Token=REDACTED&q=REDACTED"},
	{"a=1&b=VDS_x&c=2", "a=1&b=REDACTED&c=2"},
	{"access%5Ftoken=k5&model=F%2D150", "access%5Ftoken=REDACTED&model=F%2D150"},
	{"q=vds%5Fk&bad=%zz", "q=REDACTED&bad=%zz"},
	{"q=v+ds_&x=vd+s_", "q=v+ds_&x=vd+s_"},
	{"PassWord=x", "PassWord=REDACTED"},
	{"\u212aey=x&k=1", "\u212aey=REDACTED&k=1"},             // the Kelvin sign lower-cases to 'k'
	{"\u0130d=1&s\u0130g=2", "\u0130d=1&s\u0130g=REDACTED"}, // and dotted capital I to 'i'
	{"sig", "sig=REDACTED"},
	{"flag&session", "flag&session=REDACTED"},
	{"pass=a&PW=b&jwt=c&Bearer=d&pwd=e", "pass=REDACTED&PW=REDACTED&jwt=REDACTED&Bearer=REDACTED&pwd=REDACTED"},
	{"make=Ford;token=k&model=F;x=vds_k", "make=Ford;token=REDACTED&model=F;x=REDACTED"},
	{"a=1;b=2;", "a=1;b=2;"},
	{";pw=1;", ";pw=REDACTED;"},
	{strings.Repeat("a", 1100), strings.Repeat("a", 1024) + "...(truncated)"},
}

// TestRedactQuery pins redactQuery on cases of every branch, against the
// expected line and the implementation it replaced.
func TestRedactQuery(t *testing.T) {
	t.Parallel()
	for _, c := range redactCases {
		if got := redactQuery(c.q); got != c.want {
			t.Errorf("redactQuery(%q) = %q, want %q", c.q, got, c.want)
		}
		if before := redactQueryBefore(c.q); before != c.want {
			t.Errorf("before: redactQuery(%q) = %q, want %q", c.q, before, c.want)
		}
	}
}

func TestRedactPath(t *testing.T) {
	for p, want := range map[string]string{
		"/v1/cars":           "/v1/cars",
		"/v1/cars/vds_ABC/x": "/v1/cars/REDACTED/x",
		"/VDS_abc":           "/REDACTED",
		"/a/xvds_k/b/Vds_j":  "/a/REDACTED/b/REDACTED",
		"/v1/vds/_x":         "/v1/vds/_x",
		"/\u212a/vds_\u00e9": "/\u212a/REDACTED",
	} {
		if got := redactPath(p); got != want {
			t.Errorf("redactPath(%q) = %q, want %q", p, got, want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = redactPath("/v1/cars/0b4e2b0e-5a6f-4c7e-9d1a-3f2b1c0d9e8f") }); n != 0 {
		t.Errorf("redactPath of a clean path: %v allocations, want 0", n)
	}
}

// TestRedactQueryAllocs: a query without secrets or escapes allocates nothing.
func TestRedactQueryAllocs(t *testing.T) {
	for _, q := range []string{"make=Toyota", "make=Toyota&model=Camry&year=2020&page=3&per_page=50"} {
		if n := testing.AllocsPerRun(100, func() { _ = redactQuery(q) }); n != 0 {
			t.Errorf("redactQuery(%q): %v allocations, want 0", q, n)
		}
	}
}

// FuzzRedactQuery compares redactQuery with the implementation it replaced.
func FuzzRedactQuery(f *testing.F) {
	for _, c := range redactCases {
		f.Add(c.q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		if got, want := redactQuery(q), redactQueryBefore(q); got != want {
			t.Errorf("redactQuery(%q) = %q, before %q", q, got, want)
		}
	})
}
