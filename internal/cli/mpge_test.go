package cli

import (
	"strings"
	"testing"
)

// Electric and fuel-cell cars' EPA figures are MPGe: vds get labels them
// so and the MPG column of car tables marks them; a plug-in hybrid's are
// its gasoline MPG.
func TestMPGeLabels(t *testing.T) {
	isolate(t)
	ts := newTestServer(t)
	bev := ts.as(t, "dev", piped, "search", "cars", "--fuel-type", "bev", "--per-page", "1")
	check(t, bev, 0, []string{`\A[0-9a-f-]{36}\t[^\n]*\t[0-9.]+ MPGe\n\z`}, nil, nil)
	id, _, _ := strings.Cut(bev.out, "\t")
	check(t, ts.as(t, "dev", tty, "get", "car", id), 0,
		[]string{`^City MPGe {2,}[0-9.]+$`, `^Highway MPGe {2,}[0-9.]+$`, `^Combined MPGe {2,}[0-9.]+$`}, []string{`MPG {2,}`}, nil)
	check(t, ts.as(t, "dev", piped, "search", "cars", "--fuel-type", "phev", "--per-page", "3"), 0,
		[]string{`\t[0-9.]+\n`}, []string{`MPGe`}, nil)
}
