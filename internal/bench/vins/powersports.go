package vins

import (
	"compress/gzip"
	"context"
	"database/sql"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/vds-dev/vds/internal/vin"
	_ "modernc.org/sqlite" // vPIC snapshots are SQLite files
)

// vinChars are the characters a VIN may hold.
const vinChars = "0123456789ABCDEFGHJKLMNPRSTUVWXYZ"

// modelPattern is one Model pattern of a powersports WMI's schema, with
// the model years the schema is valid for.
type modelPattern struct {
	wmi, keys string
	from, to  int
}

// Powersports makes n VINs from vPIC's own Model patterns of its
// Motorcycle, Low Speed Vehicle and Off Road Vehicle WMIs in the snapshot
// at path (SQLite, or its .gz): each picks a pattern and a model year its
// schema is valid for (open-ended schemas stop at the snapshot's data year
// + 1), fills what the keys leave open at random (digits in the serial) and
// gets its check digit; the same list for a seed.
func Powersports(ctx context.Context, path string, n int, seed uint64) ([]string, error) {
	pats, err := modelPatterns(ctx, path)
	if err != nil {
		return nil, err
	}
	if len(pats) == 0 {
		return nil, fmt.Errorf("%s has no Model pattern of a powersports WMI", path)
	}
	out := generate(pats, n, seed)
	if len(out) < n {
		return nil, fmt.Errorf("%s: made %d of %d VINs", path, len(out), n)
	}
	return out, nil
}

// generate makes up to n VINs from pats, the same for a seed.
func generate(pats []modelPattern, n int, seed uint64) []string {
	r := rand.New(rand.NewPCG(seed, 0))
	out := make([]string, 0, n)
	for tries := 0; len(out) < n && tries < 100*n; tries++ {
		p := pats[r.IntN(len(pats))]
		if v, ok := p.vin(r, p.from+r.IntN(p.to-p.from+1)); ok {
			out = append(out, v)
		}
	}
	return out
}

func modelPatterns(ctx context.Context, path string) ([]modelPattern, error) {
	if strings.HasSuffix(path, ".gz") {
		tmp, err := gunzipTemp(path)
		if err != nil {
			return nil, err
		}
		defer os.Remove(tmp)
		path = tmp
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&immutable=1")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	var dataYear int
	if err := db.QueryRowContext(ctx, `SELECT CAST(SUBSTR(MAX(COALESCE(UpdatedOn, CreatedOn)), 1, 4) AS INTEGER)
		FROM VinSchema WHERE COALESCE(Notes, '') NOT LIKE 'Community contribution%'`).Scan(&dataYear); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	rows, err := db.QueryContext(ctx, `SELECT w.Wmi, p.Keys, ws.YearFrom, COALESCE(ws.YearTo, ?)
		FROM Wmi w JOIN Wmi_VinSchema ws ON ws.WmiId = w.Id JOIN Pattern p ON p.VinSchemaId = ws.VinSchemaId
		JOIN Element e ON e.Id = p.ElementId JOIN VehicleType t ON t.Id = w.VehicleTypeId
		WHERE e.Code = 'Model' AND t.Name IN ('Motorcycle', 'Low Speed Vehicle (LSV)', 'Off Road Vehicle')
		ORDER BY w.Wmi, ws.YearFrom, p.Keys, p.Id`, dataYear+1)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer rows.Close()
	var out []modelPattern
	for rows.Next() {
		var p modelPattern
		if err := rows.Scan(&p.wmi, &p.keys, &p.from, &p.to); err != nil {
			return nil, err
		}
		p.wmi, p.keys, p.to = strings.ToUpper(p.wmi), strings.ToUpper(p.keys), min(p.to, dataYear+1)
		if p.from <= p.to && (len(p.wmi) == 3 || len(p.wmi) == 6) {
			out = append(out, p)
		}
	}
	return out, rows.Err()
}

// vin fills the pattern's VIN for year, or reports that the keys rule the
// year or the WMI's positions 12-14 out.
func (p modelPattern) vin(r *rand.Rand, year int) (string, bool) {
	toks := tokens(p.keys)
	b := []byte(p.wmi[:3] + strings.Repeat("0", 14))
	for i := 3; i < 17; i++ {
		var tok string
		switch {
		case i < 8 && i-3 < len(toks):
			tok = toks[i-3]
		case i >= 9 && len(toks) > 5 && toks[5] == "|" && i-3 < len(toks):
			tok = toks[i-3]
		}
		var want byte
		switch {
		case i == 8:
			continue // the check digit
		case i == 9:
			want = vin.YearCode(year)
		case i >= 11 && i <= 13 && len(p.wmi) == 6:
			want = p.wmi[i-8]
		}
		allowed := vinChars
		if tok != "" && tok != "*" {
			allowed = expand(tok)
		} else if i >= 11 {
			allowed = vinChars[:10] // serials are digits
		}
		if want != 0 {
			if !strings.ContainsRune(allowed, rune(want)) {
				return "", false
			}
			b[i] = want
			continue
		}
		if allowed == "" {
			return "", false
		}
		b[i] = allowed[r.IntN(len(allowed))]
	}
	return WithCheckDigit(string(b)), true
}

// tokens splits keys into one token per position: a character, "*", a
// "[...]" class, and "|" between positions 8 and 10.
func tokens(keys string) []string {
	var out []string
	for i := 0; i < len(keys); i++ {
		if keys[i] == '[' {
			if j := strings.IndexByte(keys[i:], ']'); j > 0 {
				out = append(out, keys[i:i+j+1])
				i += j
				continue
			}
		}
		out = append(out, keys[i:i+1])
	}
	return out
}

// expand lists the VIN characters a token admits.
func expand(tok string) string {
	if !strings.HasPrefix(tok, "[") {
		return strings.Trim(tok, "IOQ")
	}
	body := tok[1 : len(tok)-1]
	var sb strings.Builder
	for i := 0; i < len(body); i++ {
		lo, hi := body[i], body[i]
		if i+2 < len(body) && body[i+1] == '-' {
			hi = body[i+2]
			i += 2
		}
		for c := lo; c <= hi && c >= lo; c++ {
			if strings.IndexByte(vinChars, c) >= 0 {
				sb.WriteByte(c)
			}
		}
	}
	return sb.String()
}

func gunzipTemp(path string) (string, error) {
	in, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer in.Close()
	zr, err := gzip.NewReader(in)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	out, err := os.CreateTemp("", "vins-vpic-*.db")
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(out, zr); err != nil {
		out.Close()
		os.Remove(out.Name())
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return out.Name(), out.Close()
}
