package epa

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"strings"
	"time"

	"github.com/vds-dev/vds/internal/fetch"
)

// DefaultURL is EPA's download of the full vehicles.csv, zipped.
const DefaultURL = "https://www.fueleconomy.gov/feg/epadata/vehicles.csv.zip"

// MaxDownloadBytes stops a misconfigured URL from filling the disk (the real zip is ~2 MiB).
const MaxDownloadBytes = 200 << 20

// MaxCSVBytes caps the CSV a file holds or a zip unpacks to: EPA's is 21 MB.
const MaxCSVBytes = 128 << 20

// DownloadTimeout bounds a download when the caller passes no client.
const DownloadTimeout = 5 * time.Minute

// Load opens src (see Open) and parses it; progress gets bytes done and total
// (-1 when unknown) of the download, or of the parse for a local file.
func Load(ctx context.Context, src string, httpClient *http.Client, progress func(done, total int64)) (*Table, error) {
	rc, name, err := open(ctx, src, httpClient, progress, MaxDownloadBytes)
	if err != nil {
		return nil, err
	}
	t, err := Parse(ctx, rc, name)
	if cerr := rc.Close(); err == nil && cerr != nil {
		return nil, fmt.Errorf("close %s: %w", name, cerr)
	}
	return t, err
}

// Open returns a reader of the CSV rows of a file or URL, zipped or plain. A
// download goes to a temporary file (a zip needs random access), removed on Close.
func Open(ctx context.Context, src string, httpClient *http.Client, progress func(done, total int64)) (io.ReadCloser, error) {
	rc, _, err := open(ctx, src, httpClient, progress, MaxDownloadBytes)
	return rc, err
}

func open(ctx context.Context, src string, client *http.Client, progress func(done, total int64), limit int64) (io.ReadCloser, string, error) {
	if src == "" {
		return nil, "", errors.New("no EPA source: give a vehicles.csv file or URL")
	}
	var (
		f       *os.File
		cleanup = func() {}
		err     error
	)
	if fetch.IsURL(src) {
		if client == nil {
			client = &http.Client{Timeout: DownloadTimeout}
		}
		f, err = fetch.Download(ctx, src, "EPA data", client, limit, progress)
		if err != nil {
			return nil, "", err
		}
		cleanup = func() { _ = os.Remove(f.Name()) }
		progress = nil
	} else {
		if f, err = os.Open(src); err != nil {
			return nil, "", err
		}
	}
	rc, name, err := fromFile(f, src, progress)
	if err != nil {
		_ = f.Close()
		cleanup()
		return nil, "", err
	}
	return &closer{Reader: rc, close: func() error {
		err := rc.Close()
		if ferr := f.Close(); err == nil {
			err = ferr
		}
		cleanup()
		return err
	}}, name, nil
}

func fromFile(f *os.File, src string, progress func(done, total int64)) (io.ReadCloser, string, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, "", fmt.Errorf("stat %s: %w", src, err)
	}
	var magic [4]byte
	n, _ := io.ReadFull(f, magic[:])
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, "", fmt.Errorf("read %s: %w", src, err)
	}
	isZip := bytes.Equal(magic[:n], []byte("PK\x03\x04")) || bytes.Equal(magic[:n], []byte("PK\x05\x06"))
	if !isZip && strings.EqualFold(path.Ext(fetch.Path(src)), ".zip") {
		return nil, "", fmt.Errorf("%s: named .zip but not a zip archive", src)
	}
	if !isZip {
		if st.Size() > MaxCSVBytes {
			return nil, "", fmt.Errorf("%s: %d bytes, over the %d-byte limit of an EPA vehicles.csv", src, st.Size(), MaxCSVBytes)
		}
		return io.NopCloser(&fetch.Counter{R: f, Total: st.Size(), Progress: progress}), src, nil
	}
	zr, err := zip.NewReader(f, st.Size())
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", src, err)
	}
	m, err := csvMember(zr)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", src, err)
	}
	name := src + "!" + m.Name
	// Refused from the header; capped reads hold a header that lies to it.
	if m.UncompressedSize64 > MaxCSVBytes {
		return nil, "", fmt.Errorf("%s: unpacks to %d bytes, over the %d-byte limit of an EPA vehicles.csv", name, m.UncompressedSize64, MaxCSVBytes)
	}
	mr, err := m.Open()
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", name, err)
	}
	total := int64(m.UncompressedSize64)
	r := fetch.Capped(mr, MaxCSVBytes, name)
	return &closer{Reader: &fetch.Counter{R: r, Total: total, Progress: progress}, close: mr.Close}, name, nil
}

// csvMember picks vehicles.csv from the archive, or its only .csv member.
func csvMember(zr *zip.Reader) (*zip.File, error) {
	var csvs []*zip.File
	for _, m := range zr.File {
		if m.FileInfo().IsDir() {
			continue
		}
		base := path.Base(m.Name)
		if strings.EqualFold(base, "vehicles.csv") {
			return m, nil
		}
		if strings.EqualFold(path.Ext(base), ".csv") {
			csvs = append(csvs, m)
		}
	}
	if len(csvs) == 1 {
		return csvs[0], nil
	}
	return nil, fmt.Errorf("no vehicles.csv in the archive (%d other .csv members)", len(csvs))
}

type closer struct {
	io.Reader
	close func() error
}

func (c *closer) Close() error { return c.close() }
