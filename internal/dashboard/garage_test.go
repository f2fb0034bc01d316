package dashboard_test

import (
	"context"
	"html"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/server"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/upstream"
	"github.com/vds-dev/vds/internal/upstream/upstreamtest"
	"github.com/vds-dev/vds/internal/watch"
)

// options returns the values of a page's <option>s (the placeholder "" left out).
func options(body, selectID string) []string {
	i := strings.Index(body, `<select id="`+selectID+`"`)
	if i < 0 {
		return nil
	}
	body = body[i:]
	body = body[:strings.Index(body, "</select>")]
	var out []string
	for _, m := range regexp.MustCompile(`<option value="([^"]*)"`).FindAllStringSubmatch(body, -1) {
		if m[1] != "" {
			out = append(out, html.UnescapeString(m[1]))
		}
	}
	return out
}

// drill walks the add-a-vehicle steps for a record and returns the last
// step's page, which offers the records of that make, model and year.
func drill(t *testing.T, b *browser, listID string, kind catalog.Kind, mk, model string, year int) page {
	t.Helper()
	q := url.Values{}
	if listID != "" {
		q.Set("list", listID)
	}
	b.get("/dashboard/garage/add?"+q.Encode()).want(t, http.StatusOK, "").contains(t, "Type of vehicle", `aria-current="step">Type`)
	q.Set("type", string(kind))
	p := b.get("/dashboard/garage/add?"+q.Encode()).want(t, http.StatusOK, "")
	if !slices.Contains(options(p.body, "make"), mk) {
		t.Fatalf("make %q not offered: %v", mk, options(p.body, "make"))
	}
	q.Set("make", mk)
	p = b.get("/dashboard/garage/add?"+q.Encode()).want(t, http.StatusOK, "")
	if !slices.Contains(options(p.body, "model"), model) {
		t.Fatalf("model %q not offered: %v", model, options(p.body, "model"))
	}
	q.Set("model", model)
	p = b.get("/dashboard/garage/add?"+q.Encode()).want(t, http.StatusOK, "")
	if !slices.Contains(options(p.body, "year"), strconv.Itoa(year)) {
		t.Fatalf("year %d not offered: %v", year, options(p.body, "year"))
	}
	q.Set("year", strconv.Itoa(year))
	return b.get("/dashboard/garage/add?"+q.Encode()).want(t, http.StatusOK, "").contains(t, "Which one?", `aria-current="step">Vehicle`)
}

// listsOf is /v1/lists as list name -> item uuid -> note.
func listsOf(t *testing.T, base, token string) map[string]map[string]string {
	t.Helper()
	status, body := api(t, base, token, "/v1/lists")
	if status != http.StatusOK {
		t.Fatalf("/v1/lists: %d %v", status, body)
	}
	out := map[string]map[string]string{}
	for _, l := range body["data"].([]any) {
		l := l.(map[string]any)
		items := map[string]string{}
		for _, it := range l["items"].([]any) {
			it := it.(map[string]any)
			items[it["uuid"].(string)] = it["note"].(string)
		}
		out[l["name"].(string)] = items
	}
	return out
}

func TestGarage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	base := e.start()
	b := newBrowser(t, base)
	b.signUp("garage@example.com", password)
	b.get("/dashboard/garage").want(t, http.StatusOK, "").contains(t, "My garage", "No vehicles yet.")
	ctx := context.Background()
	_, token, err := e.acc.CreateToken(ctx, mustAccount(t, e, "garage@example.com").ID, "test")
	if err != nil {
		t.Fatal(err)
	}

	car := e.cat.Cars[0]
	p := drill(t, b, "", catalog.KindCar, car.Make, car.Model, car.Year)
	if !strings.Contains(p.body, `value="`+car.UUID.String()+`"`) {
		t.Fatalf("the record step does not offer %s", car.UUID)
	}
	b.post("/dashboard/garage/items", url.Values{"type": {"car"}, "uuid": {car.UUID.String()}, "note": {"daily <driver>"},
		"list": {regexp.MustCompile(`name="list" value="(lst_[a-z2-7]+)"`).FindStringSubmatch(p.body)[1]}}).
		want(t, http.StatusSeeOther, "")
	g := b.get("/dashboard/garage?n=added").want(t, http.StatusOK, "").contains(t, "Added to the list.",
		"/dashboard/records/car/"+car.UUID.String(), "daily &lt;driver&gt;", car.Make+" "+car.Model)
	defaultID := regexp.MustCompile(`id="list-(lst_[a-z2-7]+)"`).FindStringSubmatch(g.body)[1]

	// The record's page.
	b.get("/dashboard/records/car/"+car.UUID.String()).want(t, http.StatusOK, "").
		contains(t, car.Make, car.Trim, "Fuel type", base+"/v1/cars/"+car.UUID.String())
	b.get("/dashboard/records/car/"+uuid.NewString()).want(t, http.StatusNotFound, "").contains(t, "Not in the catalog")
	b.get("/dashboard/records/cars/"+car.UUID.String()).want(t, http.StatusNotFound, "")

	// The API shows exactly the dashboard's garage.
	if got := listsOf(t, base, token); len(got) != 1 || got["My garage"][car.UUID.String()] != "daily <driver>" {
		t.Fatalf("/v1/lists = %v", got)
	}

	// Adding it again says so and changes nothing.
	b.post("/dashboard/garage/items", url.Values{"type": {"car"}, "uuid": {car.UUID.String()}, "list": {defaultID}}).
		want(t, http.StatusSeeOther, "/dashboard/garage?n=already#list-"+defaultID)

	// A named list, filled from a record's page, with a boat.
	b.post("/dashboard/garage/lists", url.Values{"name": {"  Lake   house "}}).want(t, http.StatusSeeOther, "")
	b.post("/dashboard/garage/lists", url.Values{"name": {"Lake house"}}).want(t, http.StatusConflict, "").contains(t, "already")
	b.post("/dashboard/garage/lists", url.Values{"name": {""}}).want(t, http.StatusBadRequest, "")
	g = b.get("/dashboard/garage").contains(t, "Lake house")
	ids := regexp.MustCompile(`id="list-(lst_[a-z2-7]+)"`).FindAllStringSubmatch(g.body, -1)
	if len(ids) != 2 {
		t.Fatalf("want 2 lists on the page, got %d", len(ids))
	}
	lakeID := ids[1][1]
	boat := e.cat.Boats[0]
	drill(t, b, lakeID, catalog.KindBoat, boat.Make, boat.Model, boat.Year).contains(t, "Add to “Lake house”")
	b.post("/dashboard/garage/items", url.Values{"type": {"boat"}, "uuid": {boat.UUID.String()}, "list": {lakeID}}).
		want(t, http.StatusSeeOther, "/dashboard/garage?n=added#list-"+lakeID)
	got := listsOf(t, base, token)
	if _, ok := got["Lake house"][boat.UUID.String()]; !ok || len(got["My garage"]) != 1 {
		t.Fatalf("/v1/lists after adding to a named list = %v", got)
	}

	// Remove from the default list.
	b.post("/dashboard/garage/items/remove", url.Values{"type": {"car"}, "uuid": {car.UUID.String()}, "list": {defaultID}}).
		want(t, http.StatusSeeOther, "/dashboard/garage?n=removed#list-"+defaultID)
	if got := listsOf(t, base, token); len(got["My garage"]) != 0 {
		t.Fatalf("/v1/lists after remove = %v", got)
	}

	// Delete the named list after confirming; the default list cannot go.
	b.get("/dashboard/garage/lists/"+lakeID+"/delete").want(t, http.StatusOK, "").contains(t, "Delete the list “Lake house”?")
	b.get("/dashboard/garage/lists/"+defaultID+"/delete").want(t, http.StatusNotFound, "")
	b.post("/dashboard/garage/lists/"+defaultID+"/delete", url.Values{}).want(t, http.StatusNotFound, "")
	b.post("/dashboard/garage/lists/"+lakeID+"/delete", url.Values{}).want(t, http.StatusSeeOther, "/dashboard/garage?n=list-deleted")
	if got := listsOf(t, base, token); len(got) != 1 {
		t.Fatalf("/v1/lists after deleting the named list = %v", got)
	}

	// Another account's list is out of reach.
	theirs, err := e.acc.CreateAccount(ctx, "neighbour@example.com", "free")
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := e.lists.Lists(ctx, theirs.ID)
	theirList := stored[0].ID
	b.get("/dashboard/garage/add?list="+theirList).want(t, http.StatusNotFound, "")
	b.post("/dashboard/garage/items", url.Values{"type": {"car"}, "uuid": {car.UUID.String()}, "list": {theirList}}).want(t, http.StatusNotFound, "")
	b.post("/dashboard/garage/items/remove", url.Values{"type": {"car"}, "uuid": {car.UUID.String()}, "list": {theirList}}).want(t, http.StatusNotFound, "")
	b.post("/dashboard/garage/lists/"+theirList+"/delete", url.Values{}).want(t, http.StatusNotFound, "")
	if after, _ := e.lists.Lists(ctx, theirs.ID); len(after[0].Items) != 0 {
		t.Fatal("an item landed in another account's list")
	}
}

// TestDrillDownRules: the steps refuse what the API refuses, with the
// service's rules, and stay on the step with an explanation.
func TestDrillDownRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	b := newBrowser(t, e.start())
	b.signUp("rules@example.com", password)
	for _, tc := range []struct {
		query, want string
	}{
		{"type=spaceship", "Choose one of the vehicle types"},
		{"type=car&make=NoSuchMake", "The catalog has no car of that make"},
		{"type=car&make=Toyota&model=NoSuchModel", "The catalog has no Toyota of that model"},
		{"type=car&make=Toyota&model=Camry&year=1800", "year=1800 is outside"},
		{"type=car&make=Toyota&model=Camry&year=2016", "The catalog has no Toyota Camry of that year"},
		{"type=car&make=Toyota&model=Camry&year=abc", "year"},
	} {
		t.Run(tc.query, func(t *testing.T) {
			b.get("/dashboard/garage/add?"+tc.query).want(t, http.StatusBadRequest, "").contains(t, tc.want)
		})
	}
	// Every type drills down to records.
	for _, tc := range []struct {
		kind      catalog.Kind
		mk, model string
		year      int
		id        uuid.UUID
	}{
		{catalog.KindMotorcycle, e.cat.Motorcycles[0].Make, e.cat.Motorcycles[0].Model, e.cat.Motorcycles[0].Year, e.cat.Motorcycles[0].UUID},
		{catalog.KindTireSize, e.cat.TireSizes[0].Make, e.cat.TireSizes[0].Model, e.cat.TireSizes[0].Year, e.cat.TireSizes[0].UUID},
	} {
		t.Run(string(tc.kind), func(t *testing.T) {
			drill(t, b, "", tc.kind, tc.mk, tc.model, tc.year).contains(t, tc.id.String())
		})
	}
	// A record that is not in the catalog cannot be added, nor a long note.
	// Both name the user's own list, so only the record or the note is wrong
	// (without a list the answer would be the 404 of an unknown list).
	list := regexp.MustCompile(`list=(lst_[a-z2-7]+)`).FindStringSubmatch(b.get("/dashboard/garage").body)[1]
	b.post("/dashboard/garage/items", url.Values{"type": {"car"}, "uuid": {e.cat.Cars[0].UUID.String()}, "note": {strings.Repeat("n", 501)},
		"list": {list}}).want(t, http.StatusBadRequest, "").contains(t, "at most 500 characters")
	b.post("/dashboard/garage/lists", url.Values{"name": {strings.Repeat("l", 101)}}).want(t, http.StatusBadRequest, "").contains(t, "1 to 100 characters")
	b.post("/dashboard/garage/items", url.Values{"type": {"car"}, "uuid": {uuid.NewString()}, "list": {list}}).
		want(t, http.StatusBadRequest, "").contains(t, "Not in the catalog", "not in the catalog (any more)")
}

// Text no person types (NUL and other control characters, invalid UTF-8)
// is refused with a 400 and a message in every form field and id that
// reaches the database, on both stores alike: PostgreSQL would fail on it
// and SQLite would store it.
func TestFormsRefuseControlCharacters(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, backend string) {
		e := newEnvOn(t, backend, nil)
		b := newBrowser(t, e.start())
		b.get("/dashboard/signup")
		b.post("/dashboard/signup", url.Values{"email": {"nel\u0085@example.com"}, "password": {password}, "confirm": {password}}).
			want(t, http.StatusBadRequest, "").contains(t, "Enter an email address")
		b.signUp("text@example.com", password)
		g := b.get("/dashboard/garage").want(t, http.StatusOK, "")
		listID := regexp.MustCompile(`id="list-(lst_[a-z2-7]+)"`).FindStringSubmatch(g.body)[1]
		car := e.cat.Cars[0]
		for _, bad := range []string{"a\x00b", "a\x01b", "a\xffb", "a\tb"} {
			if p := b.post("/dashboard/garage/lists", url.Values{"name": {bad}}).want(t, http.StatusBadRequest, ""); !strings.HasPrefix(p.alert(), "List name: ") {
				t.Errorf("list name %q: alert %q", bad, p.alert())
			}
			b.get("/dashboard/tokens")
			if p := b.post("/dashboard/tokens", url.Values{"name": {bad}}).want(t, http.StatusBadRequest, ""); !strings.HasPrefix(p.alert(), "Token name: ") {
				t.Errorf("token name %q: alert %q", bad, p.alert())
			}
			item := url.Values{"type": {"car"}, "uuid": {car.UUID.String()}, "list": {listID}, "note": {bad}}
			if bad != "a\tb" { // a note may hold tabs and line breaks
				b.post("/dashboard/garage/items", item).want(t, http.StatusBadRequest, "").contains(t, "Note: ")
			}
			item.Set("note", "")
			item.Set("list", "lst_"+bad)
			b.post("/dashboard/garage/items", item).want(t, http.StatusBadRequest, "").contains(t, "List id: ")
			b.post("/dashboard/garage/items/remove", item).want(t, http.StatusBadRequest, "").contains(t, "List id: ")
			// Ids in the path are refused by the server before any page
			// handler runs, as for every route.
			escaped := url.PathEscape("lst_" + bad)
			b.get("/dashboard/garage/lists/"+escaped+"/delete").want(t, http.StatusBadRequest, "").contains(t, "send a path of plain text")
			b.post("/dashboard/garage/lists/"+escaped+"/delete", url.Values{}).want(t, http.StatusBadRequest, "").contains(t, "send a path of plain text")
			b.post("/dashboard/tokens/"+url.PathEscape("tok_"+bad)+"/revoke", url.Values{}).want(t, http.StatusBadRequest, "").contains(t, "send a path of plain text")
		}
		b.post("/dashboard/garage/items", url.Values{"type": {"car"}, "uuid": {car.UUID.String()}, "list": {listID}, "note": {"first line\n\tsecond"}}).
			want(t, http.StatusSeeOther, "")
		lists, err := e.lists.Lists(context.Background(), mustAccount(t, e, "text@example.com").ID)
		if err != nil || len(lists) != 1 || len(lists[0].Items) != 1 || lists[0].Items[0].Note != "first line\n\tsecond" {
			t.Fatalf("lists after the refusals: %+v, %v; want the default list with one multi-line note", lists, err)
		}
	})
}

func mustAccount(t *testing.T, e *env, email string) account.Account {
	t.Helper()
	a, err := e.acc.Account(context.Background(), email)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestGarageVINAndRecalls: a VIN is added on the list page (an invalid
// one shown again with the reason), the watch's campaigns appear on it,
// new once, and a campaign is marked dealt with, with a note.
func TestGarageVINAndRecalls(t *testing.T) {
	t.Parallel()
	fake := upstreamtest.New(t)
	e := newEnv(t, func(c *config.Config) {
		c.Upstream = config.Upstream{VPICURL: fake.URL, NHTSAURL: fake.URL, Timeout: 5 * time.Second, CacheTTL: time.Hour}
	})
	base := e.start()
	b := newBrowser(t, base)
	b.signUp("vin@example.com", password)
	g := b.get("/dashboard/garage").want(t, http.StatusOK, "").contains(t, "Add a VIN")
	listID := regexp.MustCompile(`id="list-(lst_[a-z2-7]+)"`).FindStringSubmatch(g.body)[1]
	ctx := context.Background()
	a := mustAccount(t, e, "vin@example.com")
	_, token, err := e.acc.CreateToken(ctx, a.ID, "test")
	if err != nil {
		t.Fatal(err)
	}

	b.post("/dashboard/garage/vins", url.Values{"list": {listID}, "vin": {"1FTMW1T88MFAO0001"}}).
		want(t, http.StatusBadRequest, "").contains(t, `Character 13 is &#34;O&#34;: the letters I, O and Q never appear in a VIN.`, `value="1FTMW1T88MFAO0001"`)
	b.post("/dashboard/garage/vins", url.Values{"list": {listID}, "vin": {upstreamtest.KnownVIN}, "note": {"Dana's F-150"}}).
		want(t, http.StatusSeeOther, "/dashboard/garage?n=added#list-"+listID)
	b.post("/dashboard/garage/vins", url.Values{"list": {listID}, "vin": {strings.ToLower(upstreamtest.KnownVIN)}}).
		want(t, http.StatusSeeOther, "/dashboard/garage?n=already#list-"+listID)
	b.get("/dashboard/garage").contains(t, "2021 Ford F-150", upstreamtest.KnownVIN, "Dana&#39;s F-150", "not checked yet")

	// The watch's baseline, then a campaign first seen later.
	vehicles, err := server.LoadVehicles(ctx, e.st)
	if err != nil {
		t.Fatal(err)
	}
	up := upstream.New(upstream.Config{NHTSAURL: fake.URL, Timeout: 5 * time.Second, CacheTTL: time.Hour}, nil, nil)
	if _, err := watch.New(e.st, vehicles, up, nil, nil, watch.Config{}, slog.New(slog.DiscardHandler)).Pass(ctx, watch.PassOptions{}); err != nil {
		t.Fatal(err)
	}
	ref := store.ItemRef{ListID: listID, Kind: account.KindVIN, UUID: account.VINItemID(upstreamtest.KnownVIN)}
	if _, err := e.st.RecordItemRecalls(ctx, ref, map[string][]byte{"26V999000": []byte(`{"campaign_number":"26V999000","park_it":true,"component":"FUEL SYSTEM"}`)}, time.Now()); err != nil {
		t.Fatal(err)
	}
	g = b.get("/dashboard/garage").contains(t, "3 open", "1 new", "Park it: do not drive", "26V999000", "FUEL SYSTEM")
	if strings.Contains(b.get("/dashboard/garage").body, `class="tag new"`) {
		t.Fatal("a campaign is still new after the user saw it")
	}

	b.post("/dashboard/garage/recalls", url.Values{"list": {listID}, "type": {"vin"}, "uuid": {ref.UUID.String()},
		"campaign": {"26V999000"}, "status": {"dealt_with"}, "note": {"fixed at the dealer"}}).
		want(t, http.StatusSeeOther, "/dashboard/garage?n=dealt-with#list-"+listID)
	b.get("/dashboard/garage?n=dealt-with").contains(t, "Marked dealt with.", "2 open", "fixed at the dealer", "Mark open again")
	status, body := api(t, base, token, "/v1/lists/recalls")
	if status != http.StatusOK {
		t.Fatalf("/v1/lists/recalls: %d %v", status, body)
	}
	dealt := 0
	for _, c := range body["data"].([]any)[0].(map[string]any)["campaigns"].([]any) {
		if c := c.(map[string]any); c["status"] == "dealt_with" && c["status_note"] == "fixed at the dealer" && c["campaign_number"] == "26V999000" {
			dealt++
		}
	}
	if dealt != 1 {
		t.Fatalf("/v1/lists/recalls = %v; want 26V999000 dealt with, with its note", body)
	}

	// Another account cannot mark it.
	other := newBrowser(t, base)
	other.signUp("other@example.com", password)
	other.get("/dashboard/garage")
	other.post("/dashboard/garage/recalls", url.Values{"list": {listID}, "type": {"vin"}, "uuid": {ref.UUID.String()},
		"campaign": {"26V999000"}, "status": {"open"}}).want(t, http.StatusNotFound, "")
}
