package webhooks_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// verifySignature is the Go example of docs/api.md, "Verifying a
// signature"; TestDocumentedVerifier keeps the two the same.
func verifySignature(secret, header string, body []byte, now time.Time) error {
	var ts string
	var sigs []string
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	t, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || math.Abs(float64(now.Unix()-t)) > 300 {
		return errors.New("missing or stale timestamp")
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts + "."))
	mac.Write(body)
	want := mac.Sum(nil)
	for _, s := range sigs {
		if got, err := hex.DecodeString(s); err == nil && hmac.Equal(got, want) {
			return nil
		}
	}
	return errors.New("no valid signature")
}

// TestDocumentedVerifier: docs/api.md shows verifySignature as it is here,
// where the delivery tests use it on real deliveries.
func TestDocumentedVerifier(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("verify_test.go")
	if err != nil {
		t.Fatal(err)
	}
	start := strings.Index(string(src), "func verifySignature")
	end := strings.Index(string(src[start:]), "\n}\n")
	fn := string(src[start : start+end+2])
	doc, err := os.ReadFile("../../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.ReplaceAll(string(doc), "    ", "\t"), fn) {
		t.Errorf("docs/api.md does not show verifySignature as in verify_test.go:\n%s", fn)
	}
}
