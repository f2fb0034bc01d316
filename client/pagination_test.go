package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

func TestLinkPage(t *testing.T) {
	t.Parallel()
	// serverLink is what httpapi.linkHeader writes for page 2 of 5.
	const serverLink = `</v1/cars?make=Toyota&page=1>; rel="first", </v1/cars?make=Toyota&page=1>; rel="prev", </v1/cars?make=Toyota&page=3>; rel="next", </v1/cars?make=Toyota&page=5>; rel="last"`
	tests := []struct {
		name     string
		values   []string
		next     int
		prev     int
		wantLast int
	}{
		{"server header", []string{serverLink}, 3, 1, 5},
		{"last page has no next", []string{`</v1/cars?page=1>; rel="first", </v1/cars?page=4>; rel="prev", </v1/cars?page=5>; rel="last"`}, 0, 4, 5},
		{"separate header lines", []string{`</v1/cars?page=1>; rel="first"`, `</v1/cars?page=7>; rel="next"`}, 7, 0, 0},
		{"absolute URL, unquoted rel, extra params", []string{`<https://api.example.com/v1/boats?hull_type=Aluminum&page=2>; title="x;y"; rel=next`}, 2, 0, 0},
		{"comma inside URL and quoted title", []string{`</v1/cars?q=a%2Cb,c&page=9>; title="one, two"; rel="next", </v1/cars?page=1>; rel="prev"`}, 9, 1, 0},
		{"multiple relations", []string{`</v1/cars?page=6>; rel="next last"`}, 6, 0, 6},
		{"case-insensitive rel", []string{`</v1/cars?page=2>; REL="Next"`}, 2, 0, 0},
		{"no page parameter", []string{`</v1/cars?cursor=abc>; rel="next"`}, 0, 0, 0},
		{"page not a number", []string{`</v1/cars?page=two>; rel="next"`}, 0, 0, 0},
		{"garbage", []string{`rel="next"`, `<unterminated; rel="next"`, ``}, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := linkPage(tt.values, "next"); got != tt.next {
				t.Errorf("next = %d, want %d", got, tt.next)
			}
			if got := linkPage(tt.values, "prev"); got != tt.prev {
				t.Errorf("prev = %d, want %d", got, tt.prev)
			}
			if got := linkPage(tt.values, "last"); got != tt.wantLast {
				t.Errorf("last = %d, want %d", got, tt.wantLast)
			}
		})
	}
}

// pagedCars serves total cars, perPage a page, with the server's meta and
// Link header.
func pagedCars(t *testing.T, total, perPage int, link bool) *fake {
	maxPage := min((total+perPage-1)/perPage, 40)
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		page := 1
		if v := r.URL.Query().Get("page"); v != "" {
			page, _ = strconv.Atoi(v)
		}
		var cars []Car
		for i := (page - 1) * perPage; i < min(page*perPage, total) && page <= maxPage; i++ {
			cars = append(cars, Car{UUID: fmt.Sprintf("00000000-0000-5000-8000-%012d", i), Make: "Toyota", Year: 2020})
		}
		if cars == nil {
			cars = []Car{}
		}
		meta := Meta{Page: page, PerPage: perPage, Total: total, TotalPages: (total + perPage - 1) / perPage, MaxPage: maxPage, Truncated: total > 400}
		if link && maxPage > 0 {
			at := func(p int, rel string) string {
				return fmt.Sprintf(`</v1/cars?make=Toyota&page=%d&per_page=%d>; rel="%s"`, p, perPage, rel)
			}
			links := []string{at(1, "first")}
			if page > 1 {
				links = append(links, at(min(page-1, maxPage), "prev"))
			}
			if page < maxPage {
				links = append(links, at(page+1, "next"))
			}
			links = append(links, at(maxPage, "last"))
			w.Header().Set("Link", strings.Join(links, ", "))
		}
		b, _ := json.Marshal(Page[Car]{Data: cars, Meta: meta})
		writeBody(w, string(b))
	})
	return f
}

// askedPages returns the page parameter of every request the fake saw.
func askedPages(f *fake) []int {
	var pages []int
	for _, r := range f.requests() {
		p, err := strconv.Atoi(r.Query.Get("page"))
		if err != nil {
			p = 1
		}
		pages = append(pages, p)
	}
	return pages
}

func TestNextPage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		link       bool
		page       int
		next, prev int
	}{
		{"Link: first page", true, 1, 2, 0},
		{"Link: middle", true, 2, 3, 1},
		{"Link: last", true, 3, 0, 2},
		{"no Link: first page from meta", false, 1, 2, 0},
		{"no Link: last from meta", false, 3, 0, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := pagedCars(t, 25, 10, tt.link)
			p, err := f.client().ListCars(context.Background(), CarQuery{Make: "Toyota", Page: tt.page, PerPage: 10})
			if err != nil {
				t.Fatal(err)
			}
			if p.NextPage != tt.next || p.PrevPage != tt.prev || p.HasNext() != (tt.next > 0) {
				t.Errorf("next, prev = %d, %d; want %d, %d", p.NextPage, p.PrevPage, tt.next, tt.prev)
			}
		})
	}
}

func TestPageJSONIsTheEnvelope(t *testing.T) {
	t.Parallel()
	p := CarPage{Data: []Car{{UUID: carUUID}}, Meta: Meta{Page: 1}, NextPage: 2, ResponseInfo: ResponseInfo{RequestID: "x"}}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["data"] == nil || got["meta"] == nil {
		t.Errorf("page encodes as %s, want only data and meta", b)
	}
}

func TestAllCars(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		total     int
		start     int
		stopAfter int
		wantN     int
		wantPages []int
	}{
		{"three pages", 25, 0, 0, 25, []int{1, 2, 3}},
		{"from page 2", 25, 2, 0, 15, []int{2, 3}},
		{"empty", 0, 0, 0, 0, []int{1}},
		{"caller stops early", 25, 0, 12, 12, []int{1, 2}},
		{"stops at the 40-page limit", 450, 0, 0, 400, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := pagedCars(t, tt.total, 10, true)
			n := 0
			seen := map[string]bool{}
			for car, err := range f.client().AllCars(context.Background(), CarQuery{Make: "Toyota", Page: tt.start, PerPage: 10}) {
				if err != nil {
					t.Fatal(err)
				}
				if seen[car.UUID] {
					t.Fatalf("car %s twice", car.UUID)
				}
				seen[car.UUID] = true
				n++
				if n == tt.stopAfter {
					break
				}
			}
			if n != tt.wantN {
				t.Errorf("iterated %d cars, want %d", n, tt.wantN)
			}
			asked := askedPages(f)
			if tt.wantPages != nil && fmt.Sprint(asked) != fmt.Sprint(tt.wantPages) {
				t.Errorf("pages asked = %v, want %v", asked, tt.wantPages)
			}
			if tt.wantPages == nil && len(asked) != 40 {
				t.Errorf("asked %d pages, want 40", len(asked))
			}
		})
	}
}

func TestAllStopsOnError(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("page") == "2" {
			writeProblem(w, 400, `{"title":"Bad Request","status":400,"code":"invalid_parameter","detail":"page"}`)
			return
		}
		w.Header().Set("Link", `</v1/boats?page=2>; rel="next"`)
		writeBody(w, `{"data":[`+boatJSON+`],"meta":{"page":1,"per_page":1,"total":2,"total_pages":2,"max_page":2,"truncated":false}}`)
	})
	var boats, errs int
	for _, err := range f.client().AllBoats(context.Background(), BoatQuery{HullType: "Fiberglass", PerPage: 1}) {
		if err != nil {
			errs++
			if ErrorCode(err) != CodeInvalidParameter {
				t.Errorf("err = %v", err)
			}
			continue
		}
		boats++
	}
	if boats != 1 || errs != 1 {
		t.Errorf("boats, errors = %d, %d; want 1, 1", boats, errs)
	}
}

// TestAllIgnoresBackwardLinks guards against a loop when a server's next
// link does not move forward.
func TestAllIgnoresBackwardLinks(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", `</v1/tire-sizes?page=1>; rel="next"`)
		writeBody(w, `{"data":[`+tireJSON+`],"meta":{"page":1,"per_page":1,"total":5,"total_pages":5,"max_page":5,"truncated":false}}`)
	})
	n := 0
	for _, err := range f.client().AllTireSizes(context.Background(), TireSizeQuery{TireSize: "215/55R17"}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 1 || f.count() != 1 {
		t.Errorf("%d records from %d requests, want 1 from 1", n, f.count())
	}
}

func TestAllMotorcycles(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		if got := r.URL.Query().Get("vehicle_type"); got != "ATV/UTV" {
			t.Errorf("vehicle_type = %q", got)
		}
		writeBody(w, `{"data":[`+motoJSON+`],"meta":{"page":1,"per_page":10,"total":1,"total_pages":1,"max_page":1,"truncated":false}}`)
	})
	var got []Motorcycle
	for m, err := range f.client().AllMotorcycles(context.Background(), MotorcycleQuery{VehicleType: "ATV/UTV"}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, m)
	}
	if len(got) != 1 || got[0].UUID != motoUUID {
		t.Errorf("got %+v", got)
	}
}
