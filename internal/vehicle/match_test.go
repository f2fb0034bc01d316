package vehicle_test

import (
	"bytes"
	"cmp"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/vehicle"
)

// genMotorcycles makes n records whose names share words and prefixes
// ("Street Glide", "StreetGlide", "Glide Street") with each other and with
// the riding types, so that q words match names, other fields or both.
func genMotorcycles(n int, seed uint64) []catalog.Motorcycle {
	rng := rand.New(rand.NewPCG(seed, 1))
	makes := []string{"Harley-Davidson", "Harley", "Polaris", "Can-Am", "CAN-AM", "Street Co", "Glide"}
	models := []string{"Street Glide", "StreetGlide", "Glide Street", "Road Glide", "RZR XP 1000", "RZR 570", "Fat Boy",
		"Street 750", "S", "Scooter X", "Road", "ATV 90"}
	out := make([]catalog.Motorcycle, n)
	for i := range out {
		// Half the models have one riding type, as most do.
		model := rng.IntN(len(models))
		typ := catalog.MotorcycleTypes[rng.IntN(len(catalog.MotorcycleTypes))]
		if model%2 == 0 {
			typ = catalog.MotorcycleTypes[model%len(catalog.MotorcycleTypes)]
		}
		out[i] = catalog.Motorcycle{
			UUID: uuid.NewSHA1(uuid.NameSpaceOID, []byte(strconv.Itoa(i))),
			Make: makes[rng.IntN(len(makes))], Model: models[model], Year: 2010 + rng.IntN(16),
			MotorcycleType: typ, VehicleType: catalog.ClassOf(typ),
		}
	}
	return out
}

var runSplit = regexp.MustCompile(`[0-9]+|[^0-9]+`)

// refTokens is the tokenizer spelt out: letter-and-digit runs, their
// letter and digit parts, and for names the runs joined.
func refTokens(s string, joined bool) []string {
	runs := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !('a' <= r && r <= 'z' || '0' <= r && r <= '9')
	})
	out := slices.Clone(runs)
	for _, r := range runs {
		if parts := runSplit.FindAllString(r, -1); len(parts) > 1 {
			out = append(out, parts...)
		}
	}
	if joined && len(runs) > 1 {
		out = append(out, strings.Join(runs, ""))
	}
	return out
}

func anyPrefix(tokens []string, w string) bool {
	return slices.ContainsFunc(tokens, func(t string) bool { return strings.HasPrefix(t, w) })
}

// refRecord is a record with its name's tokens and all its tokens.
type refRecord struct {
	catalog.Motorcycle
	name, all []string
}

// refSearch answers a q search (with optional make, year and type) by
// checking every record: matches whose name has every word first, then
// the others, each in list order.
func refSearch(recs []refRecord, words []string, mk, typ string, year int) []uuid.UUID {
	var named, others []uuid.UUID
	for _, m := range recs {
		if mk != "" && !strings.EqualFold(m.Make, mk) || typ != "" && m.MotorcycleType != typ || year != 0 && m.Year != year {
			continue
		}
		name, all := m.name, m.all
		inName, inAll := true, true
		for _, w := range words {
			inName = inName && anyPrefix(name, w)
			inAll = inAll && anyPrefix(all, w)
		}
		switch {
		case inName:
			named = append(named, m.UUID)
		case inAll:
			others = append(others, m.UUID)
		}
	}
	return append(named, others...)
}

// TestMatchAgreesWithReference holds the indexed q search, which takes
// whole groups of records by their name, to a scan of every record.
func TestMatchAgreesWithReference(t *testing.T) {
	t.Parallel()
	recs := genMotorcycles(1200, 27)
	svc := vehicle.NewService(snapshot(t, &catalog.Catalog{Motorcycles: recs}, catalog.Version{}))
	sorted := slices.Clone(recs)
	slices.SortFunc(sorted, func(a, b catalog.Motorcycle) int {
		return cmp.Or(strings.Compare(strings.ToLower(a.Make), strings.ToLower(b.Make)),
			strings.Compare(strings.ToLower(a.Model), strings.ToLower(b.Model)), cmp.Compare(b.Year, a.Year),
			bytes.Compare(a.UUID[:], b.UUID[:]))
	})
	refs := make([]refRecord, len(sorted))
	for i, m := range sorted {
		name := append(refTokens(m.Make, true), refTokens(m.Model, true)...)
		refs[i] = refRecord{m, name, append(append(slices.Clone(name), refTokens(m.MotorcycleType, false)...), refTokens(m.VehicleType, false)...)}
	}
	vocab := []string{"street", "glide", "st", "g", "rzr", "xp", "1000", "s", "motorcycle", "harley", "road", "750",
		"scooter", "atv", "streetglide", "r", "boy", "co", "l", "lo"}
	rng := rand.New(rand.NewPCG(27, 2))
	for range 300 {
		words := make([]string, 1+rng.IntN(3))
		for i := range words {
			words[i] = vocab[rng.IntN(len(vocab))]
		}
		kv := []string{"q", strings.Join(words, " "), "page", []string{"1", "2", "7", "40"}[rng.IntN(4)], "per_page", []string{"3", "10"}[rng.IntN(2)]}
		var mk, typ string
		var year int
		switch rng.IntN(5) {
		case 0:
			mk = []string{"Harley-Davidson", "can-am", "Glide"}[rng.IntN(3)]
			kv = append(kv, "make", mk)
		case 1:
			typ = catalog.MotorcycleTypes[rng.IntN(len(catalog.MotorcycleTypes))]
			kv = append(kv, "motorcycle_type", typ)
		case 2:
			year = 2010 + rng.IntN(16)
			kv = append(kv, "year", strconv.Itoa(year))
		}
		page, err := find(svc, catalog.KindMotorcycle, kv)
		if err != nil {
			t.Fatalf("%v: %v", kv, err)
		}
		want := refSearch(refs, words, mk, typ, year)
		got := page.Records().([]catalog.Motorcycle)
		from := (page.Meta.Page - 1) * page.Meta.PerPage
		wantPage := want[min(from, len(want)):min(from+page.Meta.PerPage, len(want))]
		ids := make([]uuid.UUID, len(got))
		for i, m := range got {
			ids[i] = m.UUID
		}
		if page.Meta.Total != len(want) || !slices.Equal(ids, wantPage) {
			t.Fatalf("%v: total %d, page %s; want %d, %s", kv, page.Meta.Total, fmt.Sprint(ids), len(want), fmt.Sprint(wantPage))
		}
	}
}
