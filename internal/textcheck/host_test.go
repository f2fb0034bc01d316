package textcheck

import "testing"

func TestHostPort(t *testing.T) {
	for s, want := range map[string]bool{
		"vds.example.com": true, "vds.example.com:8443": true, "127.0.0.1:57793": true, "localhost": true,
		"[::1]:8080": true, "[2001:db8::1]": true, "my_host-1.internal": true,
		"": false, ":80": false, "x:": false, "x:0": false, "x:65536": false, "x:+80": false, "x:080": false,
		"x](javascript:alert(1))": false, "x/docs": false, "a..b": false, "-a.b": false, "a-.b": false,
		"*.example.com": false, "[::1": false, "::1": false, "[192.0.2.1]": false, "[fe80::1%25eth0]": false,
		"x y": false, "x@y": false, "x\u00e9": false,
	} {
		if got := HostPort(s); got != want {
			t.Errorf("HostPort(%q) = %v, want %v", s, got, want)
		}
	}
}
