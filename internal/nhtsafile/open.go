package nhtsafile

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"strings"
	"time"

	"github.com/vds-dev/vds/internal/fetch"
)

// Limits of what an import reads: NHTSA's FLAT_RCL_POST_2010.zip is tens
// of MB and unpacks to a few hundred.
const (
	MaxDownloadBytes = 1 << 30
	MaxTextBytes     = 4 << 30
	DownloadTimeout  = 10 * time.Minute
)

// source is one opened file: its rows, and what identifies it.
type source struct {
	io.Reader
	close    func() error
	label    string // as given, plus "!member" for a zip
	name     string // FLAT_RCL_POST_2010: the base name, no extension, upper case
	sha256   string // of the file as given (the zip, not its member)
	fileDate string
}

// open reads src, a file or http(s) URL holding a .txt or a .zip with one .txt.
func open(ctx context.Context, src string, client *http.Client) (*source, error) {
	var (
		f       *os.File
		cleanup = func() {}
		err     error
	)
	if fetch.IsURL(src) {
		if client == nil {
			client = &http.Client{Timeout: DownloadTimeout}
		}
		if f, err = fetch.Download(ctx, src, "NHTSA file", client, MaxDownloadBytes, nil); err != nil {
			return nil, err
		}
		cleanup = func() { _ = os.Remove(f.Name()) }
	} else if f, err = os.Open(src); err != nil {
		return nil, err
	}
	s, err := fromFile(f, src)
	if err != nil {
		_ = f.Close()
		cleanup()
		return nil, err
	}
	inner := s.close
	s.close = func() error {
		err := inner()
		if ferr := f.Close(); err == nil {
			err = ferr
		}
		cleanup()
		return err
	}
	return s, nil
}

func fromFile(f *os.File, src string) (*source, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("stat %s: %w", src, err)
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, fmt.Errorf("read %s: %w", src, err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("read %s: %w", src, err)
	}
	base := path.Base(strings.ReplaceAll(fetch.Path(src), `\`, "/"))
	s := &source{label: src, sha256: hex.EncodeToString(h.Sum(nil)), fileDate: st.ModTime().UTC().Format(time.DateOnly),
		close: func() error { return nil }}
	var magic [4]byte
	n, _ := io.ReadFull(f, magic[:])
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("read %s: %w", src, err)
	}
	isZip := bytes.Equal(magic[:n], []byte("PK\x03\x04")) || bytes.Equal(magic[:n], []byte("PK\x05\x06"))
	if !isZip {
		if strings.EqualFold(path.Ext(base), ".zip") {
			return nil, fmt.Errorf("%s: named .zip but not a zip archive", src)
		}
		if st.Size() > MaxTextBytes {
			return nil, fmt.Errorf("%s: %d bytes, over the %d-byte limit of an NHTSA flat file", src, st.Size(), int64(MaxTextBytes))
		}
		s.Reader, s.name = f, fileName(base)
		return s, nil
	}
	zr, err := zip.NewReader(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src, err)
	}
	m, err := textMember(zr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src, err)
	}
	s.label = src + "!" + m.Name
	if m.UncompressedSize64 > MaxTextBytes {
		return nil, fmt.Errorf("%s: unpacks to %d bytes, over the %d-byte limit of an NHTSA flat file", s.label, m.UncompressedSize64, int64(MaxTextBytes))
	}
	mr, err := m.Open()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.label, err)
	}
	if !m.Modified.IsZero() {
		s.fileDate = m.Modified.Format(time.DateOnly)
	}
	s.Reader = fetch.Capped(mr, MaxTextBytes, s.label)
	s.close, s.name = mr.Close, fileName(path.Base(m.Name))
	return s, nil
}

// fileName is what identifies a file across imports: "flat_rcl_post_2010.txt" is FLAT_RCL_POST_2010.
func fileName(base string) string {
	for _, ext := range []string{".zip", ".txt"} {
		if len(base) > len(ext) && strings.EqualFold(base[len(base)-len(ext):], ext) {
			base = base[:len(base)-len(ext)]
		}
	}
	return strings.ToUpper(base)
}

// textMember picks the archive's one .txt member (NHTSA's zips hold one).
func textMember(zr *zip.Reader) (*zip.File, error) {
	var txts []*zip.File
	for _, m := range zr.File {
		if !m.FileInfo().IsDir() && strings.EqualFold(path.Ext(m.Name), ".txt") {
			txts = append(txts, m)
		}
	}
	if len(txts) != 1 {
		return nil, fmt.Errorf("want one .txt member in the archive, found %d", len(txts))
	}
	return txts[0], nil
}
