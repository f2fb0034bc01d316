// Package nhtsafile imports NHTSA's recall flat files (FLAT_RCL_PRE_2010,
// FLAT_RCL_POST_2010) and answers recalls from them, offline: see
// docs/data.md, NHTSA recall files.
package nhtsafile

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/vds-dev/vds/internal/upstream"
)

// KindRecalls is the kind of a FLAT_RCL file.
const KindRecalls = "recalls"

// Field counts of FLAT_RCL: 29 since May 2025 (DO_NOT_DRIVE, PARK_OUTSIDE),
// 27 from March 2020, 24 from March 2008. All three are read.
var recallLayouts = map[int]bool{29: true, 27: true, 24: true}

// maxLine caps a line: NHTSA's longest record is 17,108 characters.
const maxLine = 256 << 10

// Data is the content of one recall file: campaigns once, and one row per
// campaign × make/model/year × component naming its campaign.
type Data struct {
	Strs  []string // make, model and component names; 0 is ""
	Camps []Campaign
	Rows  []Row
	// DataDate is the newest record date in the file, YYYY-MM-DD.
	DataDate string
}

// Campaign is a recall campaign as a flat file states it.
type Campaign struct {
	Number, Manufacturer, Summary, Consequence, Remedy, Notes, ReportDate string
	ParkIt, ParkOutside, OTAUpdate                                        bool
}

// Row is one vehicle (or equipment) line of a campaign.
type Row struct {
	Make, Model, Component uint32
	Year                   uint16
	Camp                   uint32
}

// LineError is a line of a file that does not fit the layout.
type LineError struct {
	File string
	Line int
	Msg  string
}

func (e *LineError) Error() string { return fmt.Sprintf("%s line %d: %s", e.File, e.Line, e.Msg) }

// recall field positions, 0-based.
const (
	fRecordID = iota
	fCampNo
	fMake
	fModel
	fYear
	_ // MFGCAMPNO
	fComponent
	fMfgName
	_ // BGMAN
	_ // ENDMAN
	_ // RCLTYPECD
	_ // POTAFF
	_ // ODATE
	_ // INFLUENCED_BY
	fMfgText
	fReportDate
	fCreated
	_ // RPNO
	_ // FMVSS
	fDefect
	fConsequence
	fRemedy
	fNotes
	_ // RCL_CMPT_ID
	_ // MFR_COMP_NAME
	_ // MFR_COMP_DESC
	_ // MFR_COMP_PTNO
	fDoNotDrive
	fParkOutside
)

type parser struct {
	d     *Data
	strs  map[string]uint32
	camps map[string]uint32
	want  int
}

// parseRecalls reads a FLAT_RCL file: tab-separated, no header, no quoting,
// UTF-8 or else Latin-1 line by line. Any line off the layout refuses the file.
func parseRecalls(r io.Reader, file string) (*Data, error) {
	p := &parser{d: &Data{Strs: []string{""}}, strs: map[string]uint32{"": 0}, camps: map[string]uint32{}}
	br := bufio.NewReaderSize(r, 1<<20)
	var fields [29][]byte
	for n := 1; ; n++ {
		line, err := readLine(br)
		if n == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark
		}
		if len(line) > 0 {
			if len(line) > maxLine {
				return nil, &LineError{file, n, fmt.Sprintf("longer than %d bytes", maxLine)}
			}
			if err := p.line(line, fields[:], file, n); err != nil {
				return nil, err
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
	}
	if len(p.d.Rows) == 0 {
		return nil, fmt.Errorf("%s: no recall rows", file)
	}
	return p.d, nil
}

// readLine returns the next line without its CR LF; io.EOF after the last.
func readLine(br *bufio.Reader) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		buf := append([]byte(nil), line...)
		for errors.Is(err, bufio.ErrBufferFull) && len(buf) <= maxLine {
			line, err = br.ReadSlice('\n')
			buf = append(buf, line...)
		}
		line = buf
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	return line, err
}

func (p *parser) line(raw []byte, fields [][]byte, file string, n int) error {
	count := bytes.Count(raw, []byte{'\t'}) + 1
	switch {
	case p.want == 0 && !recallLayouts[count]:
		return &LineError{file, n, fmt.Sprintf("%d fields; a FLAT_RCL line has 29 (or 27, 24 in files before May 2025)", count)}
	case p.want == 0:
		p.want = count
	case count != p.want:
		return &LineError{file, n, fmt.Sprintf("%d fields where the file's first line has %d", count, p.want)}
	}
	s := utf8Line(raw)
	for i := range count {
		fields[i], s, _ = bytes.Cut(s, []byte{'\t'})
	}
	f := fields[:count]
	if _, err := strconv.ParseUint(string(bytes.TrimSpace(f[fRecordID])), 10, 64); err != nil {
		return &LineError{file, n, fmt.Sprintf("RECORD_ID %q is not a number", f[fRecordID])}
	}
	campno := bytes.TrimSpace(f[fCampNo])
	if len(campno) == 0 {
		return &LineError{file, n, "CAMPNO is empty"}
	}
	year, err := strconv.ParseUint(string(bytes.TrimSpace(f[fYear])), 10, 16)
	if err != nil || year < 1900 || year > 9999 {
		return &LineError{file, n, fmt.Sprintf("YEARTXT %q is not a year", f[fYear])}
	}
	ci, ok := p.camps[string(campno)]
	if !ok {
		ci = uint32(len(p.d.Camps))
		p.camps[string(campno)] = ci
		p.d.Camps = append(p.d.Camps, campaign(string(campno), f))
	}
	if d := flatDate(f[fCreated]); d > p.d.DataDate {
		p.d.DataDate = d
	}
	p.d.Rows = append(p.d.Rows, Row{Make: p.str(f[fMake]), Model: p.str(f[fModel]), Component: p.str(f[fComponent]), Year: uint16(year), Camp: ci})
	return nil
}

func campaign(campno string, f [][]byte) Campaign {
	str := func(b []byte) string { return string(bytes.TrimSpace(b)) }
	c := Campaign{
		Number:       campno,
		Manufacturer: str(f[fMfgText]),
		Summary:      str(f[fDefect]),
		Consequence:  str(f[fConsequence]),
		Remedy:       str(f[fRemedy]),
		ReportDate:   flatDate(f[fReportDate]),
	}
	if c.Manufacturer == "" {
		c.Manufacturer = str(f[fMfgName])
	}
	if len(f) > fNotes {
		c.Notes = str(f[fNotes])
	}
	if len(f) > fParkOutside {
		c.ParkIt, c.ParkOutside = yes(f[fDoNotDrive]), yes(f[fParkOutside])
	}
	c.OTAUpdate = overTheAir(c.Remedy)
	return c
}

// overTheAir reads the API's overTheAirUpdate flag, which the files lack,
// from the remedy: NHTSA's remedies name an "over-the-air" update.
func overTheAir(remedy string) bool {
	r := strings.ToLower(remedy)
	return strings.Contains(r, "over-the-air") || strings.Contains(r, "over the air")
}

func yes(b []byte) bool {
	switch strings.ToLower(string(bytes.TrimSpace(b))) {
	case "yes", "y":
		return true
	}
	return false
}

// flatDate normalises a file date (YYYYMMDD) to YYYY-MM-DD; NHTSA's
// placeholders 19000101, 19010101 and 11111111 are unknown, as is anything unreadable.
func flatDate(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	d, ok := upstream.ISODate(string(b))
	if !ok || d < "1902" {
		return ""
	}
	return d
}

func (p *parser) str(b []byte) uint32 {
	if i, ok := p.strs[string(b)]; ok {
		return i
	}
	s := strings.Join(strings.Fields(string(b)), " ")
	if i, ok := p.strs[s]; ok {
		p.strs[string(b)] = i
		return i
	}
	i := uint32(len(p.d.Strs))
	p.strs[s] = i
	p.d.Strs = append(p.d.Strs, s)
	return i
}

// utf8Line is a line as UTF-8: itself when valid, else read as Latin-1.
func utf8Line(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	out := make([]byte, 0, len(b)*2)
	for _, c := range b {
		out = utf8.AppendRune(out, rune(c))
	}
	return out
}
