package textcheck

import (
	"net/netip"
	"strconv"
	"strings"
)

// HostPort reports whether s is host[:port]: a DNS name, an IPv4 address
// or a bracketed IPv6 one, and a port of 1 to 65535. It is what a Host
// header may hold before it goes into a URL.
func HostPort(s string) bool {
	host, port := s, ""
	if i := strings.LastIndexByte(s, ':'); i >= 0 && !strings.HasSuffix(s, "]") {
		host, port = s[:i], s[i+1:]
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 || port[0] == '+' || port[0] == '0' {
			return false
		}
	}
	if v6, ok := strings.CutPrefix(host, "["); ok {
		v6, ok = strings.CutSuffix(v6, "]")
		a, err := netip.ParseAddr(v6)
		return ok && err == nil && a.Is6() && a.Zone() == ""
	}
	return HostName(host)
}

// HostName reports whether s is a DNS name (letters, digits, '-' and '_'
// in dot-separated labels of 1 to 63 bytes) or an IPv4 address.
func HostName(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for label := range strings.SplitSeq(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}
