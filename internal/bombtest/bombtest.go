// Package bombtest builds decompression bombs for tests: a kilobyte per MiB.
package bombtest

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
	"os"
	"runtime"
	"testing"
)

const mib = 1 << 20

// Deflate returns a deflate stream of prefix and n MiB of zeros, its CRC-32
// and size. A flushed MiB of zeros compresses to the same bytes each time,
// so one is repeated: a gigabyte takes a minute under the race detector.
func Deflate(tb testing.TB, prefix []byte, n int) (stream []byte, crc uint32, size int64) {
	tb.Helper()
	var out bytes.Buffer
	fw, err := flate.NewWriter(&out, flate.BestCompression)
	if err != nil {
		tb.Fatal(err)
	}
	zeros := make([]byte, mib)
	chunk := func() []byte {
		if _, err := fw.Write(zeros); err != nil {
			tb.Fatal(err)
		}
		if err := fw.Flush(); err != nil {
			tb.Fatal(err)
		}
		b := bytes.Clone(out.Bytes())
		out.Reset()
		return b
	}
	if _, err := fw.Write(prefix); err != nil {
		tb.Fatal(err)
	}
	first, again, repeat := chunk(), chunk(), chunk()
	if !bytes.Equal(again, repeat) {
		tb.Fatal("bombtest: a flushed MiB of zeros compressed two ways")
	}
	if err := fw.Close(); err != nil {
		tb.Fatal(err)
	}
	stream = append(first, bytes.Repeat(again, n-1)...)
	stream = append(stream, out.Bytes()...)
	h := crc32.NewIEEE()
	h.Write(prefix)
	for range n {
		h.Write(zeros)
	}
	return stream, h.Sum32(), int64(len(prefix)) + int64(n)*mib
}

// Zip writes a zip archive at path whose one member, a Deflate bomb,
// declares its true size, or declared bytes when declared >= 0.
func Zip(tb testing.TB, path, member string, prefix []byte, n int, declared int64) {
	tb.Helper()
	stream, crc, size := Deflate(tb, prefix, n)
	if declared >= 0 {
		size = declared
	}
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: member, Method: zip.Deflate, CRC32: crc,
		CompressedSize64: uint64(len(stream)), UncompressedSize64: uint64(size)})
	if err == nil {
		_, err = w.Write(stream)
	}
	if err == nil {
		err = zw.Close()
	}
	if err == nil {
		err = os.WriteFile(path, b.Bytes(), 0o600)
	}
	if err != nil {
		tb.Fatal(err)
	}
}

// Gzip writes a .gz file at path holding a Deflate bomb.
func Gzip(tb testing.TB, path string, prefix []byte, n int) {
	tb.Helper()
	stream, crc, size := Deflate(tb, prefix, n)
	b := []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff} // RFC 1952: deflate, no name, unknown OS
	b = append(b, stream...)
	b = binary.LittleEndian.AppendUint32(b, crc)
	b = binary.LittleEndian.AppendUint32(b, uint32(size))
	if err := os.WriteFile(path, b, 0o600); err != nil {
		tb.Fatal(err)
	}
}

// Alloc returns the bytes allocated while fn ran; not for parallel tests.
func Alloc(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
