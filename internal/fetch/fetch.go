// Package fetch downloads the files the operator imports read (EPA's
// vehicles.csv, NHTSA's flat files) within a size limit.
package fetch

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
)

// IsURL reports whether src is an http(s) URL rather than a file name.
func IsURL(src string) bool {
	s := strings.ToLower(src)
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

// Path drops a URL's query, so "x.zip?dl=1" still counts as .zip.
func Path(src string) string {
	if i := strings.IndexAny(src, "?#"); i >= 0 && IsURL(src) {
		return src[:i]
	}
	return src
}

// Download saves url to a temporary file dated by its Last-Modified, the
// caller's to remove. what names the data in errors ("EPA data"); progress
// gets bytes done and total (-1 when unknown).
func Download(ctx context.Context, url, what string, client *http.Client, limit int64, progress func(done, total int64)) (*os.File, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("download %s: %w", url, err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("download %s: %w", what, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("download %s: %s", url, resp.Status)
	}
	if resp.ContentLength > limit {
		return nil, fmt.Errorf("download %s: %d bytes, more than the %d-byte limit", url, resp.ContentLength, limit)
	}
	f, err := os.CreateTemp("", "vds-download-*")
	if err != nil {
		return nil, fmt.Errorf("download %s: %w", what, err)
	}
	fail := func(err error) (*os.File, error) {
		_ = f.Close()
		_ = os.Remove(f.Name())
		return nil, fmt.Errorf("download %s: %w", url, err)
	}
	total := resp.ContentLength // -1 when unknown, as the callback expects
	body := &Counter{R: Capped(resp.Body, limit, url), Total: total, Progress: progress}
	if progress != nil {
		progress(0, total)
	}
	if _, err := io.Copy(f, body); err != nil {
		return fail(err)
	}
	if t, err := http.ParseTime(resp.Header.Get("Last-Modified")); err == nil {
		if err := os.Chtimes(f.Name(), t, t); err != nil {
			return fail(err)
		}
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return fail(err)
	}
	return f, nil
}

// Counter reports the bytes read through it to Progress.
type Counter struct {
	R        io.Reader
	done     int64
	Total    int64
	Progress func(done, total int64)
}

func (c *Counter) Read(p []byte) (int, error) {
	n, err := c.R.Read(p)
	c.done += int64(n)
	if c.Progress != nil && (n > 0 || err == io.EOF) {
		c.Progress(c.done, c.Total)
	}
	return n, err
}

// Capped reads r, failing past limit bytes instead of truncating like
// io.LimitReader: a cut file would load as a smaller one.
func Capped(r io.Reader, limit int64, name string) io.Reader {
	return &capped{r: r, left: limit, limit: limit, name: name}
}

type capped struct {
	r           io.Reader
	left, limit int64
	name        string
}

func (c *capped) Read(p []byte) (int, error) {
	if c.left <= 0 {
		var one [1]byte
		n, err := c.r.Read(one[:])
		if n > 0 {
			return 0, fmt.Errorf("%s: more than the %d-byte limit", c.name, c.limit)
		}
		return 0, err
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}
