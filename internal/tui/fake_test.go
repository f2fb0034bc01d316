package tui

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/vds-dev/vds/client"
)

// fakeClient is a deterministic Client over a few records: Toyota has a
// Camry with 12 cars (two API pages) and a Corolla; Camry #1 has tire
// fitments, recalls and a VIN that links to it; the garage holds it and
// a record that has left the catalog. Set errs[method] to make a method
// fail. It is safe for concurrent use, as teatest runs commands on other
// goroutines.
type fakeClient struct {
	mu    sync.Mutex
	calls []string
	errs  map[string]error
	// motoMake replaces Yamaha, the one motorcycle make.
	motoMake string
	// vinCars, when set, are the cars the VIN links to instead of Camry #1.
	vinCars []string
	// vinMotos are the motorcycles the VIN links to; GetMotorcycle finds fakeMoto.
	vinMotos []string
}

var _ Client = (*fakeClient)(nil)

func newFake() *fakeClient { return &fakeClient{errs: map[string]error{}} }

// call records a call and returns the error set for the method.
func (f *fakeClient) call(method string, args ...any) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := method
	if len(args) > 0 {
		s += fmt.Sprint(args...)
	}
	f.calls = append(f.calls, s)
	return f.errs[method]
}

func (f *fakeClient) setErr(method string, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errs[method] = err
}

// called returns the calls so far.
func (f *fakeClient) called() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

func fakeUUID(n int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", n) }

const (
	fakeVIN      = "4T1B11HK5KU000001"
	tireFitID    = "00000000-0000-4000-9000-000000000001"
	fakeMoto     = "00000000-0000-4000-b000-000000000001"
	missingBoat  = "00000000-0000-4000-a000-000000000001"
	camryRecords = 12
)

var errNotFound = &client.APIError{Status: 404, Code: client.CodeNotFound, Detail: "no such record"}

func ptr[T any](v T) *T { return &v }

func (f *fakeClient) Makes(_ context.Context, kind client.Kind, _ ...client.CallOption) ([]client.MakeCount, error) {
	if err := f.call("Makes", kind); err != nil {
		return nil, err
	}
	switch kind {
	case client.KindCar:
		return []client.MakeCount{{Name: "Honda", Count: 2}, {Name: "Tesla", Count: 1}, {Name: "Toyota", Count: camryRecords + 1}}, nil
	case client.KindTireSize:
		return []client.MakeCount{{Name: "Toyota", Count: 1}}, nil
	}
	return []client.MakeCount{{Name: cmp.Or(f.motoMake, "Yamaha"), Count: 1234}}, nil
}

func (f *fakeClient) Models(_ context.Context, kind client.Kind, mk string, _ ...client.CallOption) ([]client.ModelRange, error) {
	if err := f.call("Models", kind, mk); err != nil {
		return nil, err
	}
	if mk != "Toyota" {
		return []client.ModelRange{}, nil
	}
	return []client.ModelRange{
		{Name: "Camry", Count: camryRecords, YearMin: 2019, YearMax: 2021},
		{Name: "Corolla", Count: 1, YearMin: 2020, YearMax: 2020},
	}, nil
}

// camry returns Camry #n (1-based).
func camry(n int) client.Car {
	trims := []string{"LE", "SE", "XLE", "TRD"}
	return client.Car{
		UUID: fakeUUID(n), Make: "Toyota", Model: "Camry", Year: 2019 + (n-1)%3, Trim: trims[(n-1)%4],
		Body: "Sedan", FuelType: "Gasoline", DriveType: "FWD", Transmission: "Automatic",
		DisplacementL: ptr(2.5), Cylinders: ptr(4), Engine: "2.5L 4-cyl",
		FuelEconomy: client.FuelEconomy{MPGCity: ptr(28.0), MPGHighway: ptr(39.0), MPGCombined: ptr(32.0)},
	}
}

func (f *fakeClient) ListCars(_ context.Context, q client.CarQuery, _ ...client.CallOption) (*client.CarPage, error) {
	if err := f.call("ListCars", q.Make, "/", q.Model, "/", q.Page); err != nil {
		return nil, err
	}
	var all []client.Car
	if q.Make == "Toyota" && q.Model == "Camry" {
		for i := 1; i <= camryRecords; i++ {
			all = append(all, camry(i))
		}
	}
	return pageOf(all, q.Page, q.PerPage), nil
}

// pageOf cuts one API page out of all, with the metadata the server sends.
func pageOf[T any](all []T, n, per int) *client.Page[T] {
	n, per = max(n, 1), max(per, 1)
	p := &client.Page[T]{Data: []T{}}
	lo, hi := (n-1)*per, min(n*per, len(all))
	if lo < hi {
		p.Data = all[lo:hi]
	}
	pages := (len(all) + per - 1) / per
	p.Meta = client.Meta{Page: n, PerPage: per, Total: len(all), TotalPages: pages, MaxPage: pages}
	if n < pages {
		p.NextPage = n + 1
	}
	if n > 1 {
		p.PrevPage = n - 1
	}
	return p
}

func (f *fakeClient) ListMotorcycles(_ context.Context, q client.MotorcycleQuery, _ ...client.CallOption) (*client.MotorcyclePage, error) {
	if err := f.call("ListMotorcycles", q.Make, "/", q.Model); err != nil {
		return nil, err
	}
	return pageOf([]client.Motorcycle{}, q.Page, q.PerPage), nil
}

func (f *fakeClient) ListBoats(_ context.Context, q client.BoatQuery, _ ...client.CallOption) (*client.BoatPage, error) {
	if err := f.call("ListBoats", q.Make, "/", q.Model); err != nil {
		return nil, err
	}
	return pageOf([]client.Boat{}, q.Page, q.PerPage), nil
}

func (f *fakeClient) ListTireSizes(_ context.Context, q client.TireSizeQuery, _ ...client.CallOption) (*client.TireSizePage, error) {
	if err := f.call("ListTireSizes", q.Make, "/", q.Model); err != nil {
		return nil, err
	}
	return pageOf([]client.TireFitment{tireFitment()}, q.Page, q.PerPage), nil
}

func (f *fakeClient) GetCar(_ context.Context, uuid string, _ ...client.CallOption) (*client.Car, error) {
	if err := f.call("GetCar", uuid); err != nil {
		return nil, err
	}
	for i := 1; i <= camryRecords; i++ {
		if fakeUUID(i) == uuid {
			c := camry(i)
			return &c, nil
		}
	}
	return nil, errNotFound
}

func (f *fakeClient) GetMotorcycle(_ context.Context, uuid string, _ ...client.CallOption) (*client.Motorcycle, error) {
	if err := f.call("GetMotorcycle", uuid); err != nil {
		return nil, err
	}
	if uuid == fakeMoto {
		return &client.Motorcycle{UUID: fakeMoto, Make: "Harley-Davidson", Model: "Street Glide Special", Year: 2019,
			MotorcycleType: "Street Motorcycle", VehicleType: "Motorcycle"}, nil
	}
	return nil, errNotFound
}

func (f *fakeClient) GetBoat(_ context.Context, uuid string, _ ...client.CallOption) (*client.Boat, error) {
	if err := f.call("GetBoat", uuid); err != nil {
		return nil, err
	}
	return nil, errNotFound
}

func tireFitment() client.TireFitment {
	return client.TireFitment{UUID: tireFitID, Make: "Toyota", Model: "Camry", Year: 2019, Trim: "LE",
		TireSize: "215/55R17", AlternateSizes: []string{"225/50R17", "245/45R19"}}
}

func (f *fakeClient) GetTireSize(_ context.Context, uuid string, _ ...client.CallOption) (*client.TireFitment, error) {
	if err := f.call("GetTireSize", uuid); err != nil {
		return nil, err
	}
	if uuid != tireFitID {
		return nil, errNotFound
	}
	t := tireFitment()
	return &t, nil
}

// geometry is the fitment's geometry: one alternate inside the ±3%
// window (+1.2%) and one outside (+4.6%).
func geometry() client.FitmentGeometry {
	size := func(s string, dia float64) client.SizeGeometry {
		return client.SizeGeometry{Size: s, WidthMM: 215, SidewallMM: 118.3, DiameterIn: dia, DiameterMM: dia * 25.4, RevsPerMile: 63360 / (dia * 3.1416)}
	}
	return client.FitmentGeometry{
		Fitment: tireFitment(),
		OEM:     size("215/55R17", 26.31),
		Alternates: []client.AlternateGeometry{
			{SizeGeometry: size("225/50R17", 26.63), DiameterDiffIn: 0.32, DiameterDiffPct: 1.2, WithinWindow: true},
			{SizeGeometry: size("245/45R19", 27.52), DiameterDiffIn: 1.21, DiameterDiffPct: 4.6, WithinWindow: false},
		},
		WindowPct: 3,
	}
}

func (f *fakeClient) CarTireSizes(_ context.Context, uuid string, _ ...client.CallOption) (*client.CarTires, error) {
	if err := f.call("CarTireSizes", uuid); err != nil {
		return nil, err
	}
	c := camry(1)
	return &client.CarTires{
		Car:      client.CarRef{UUID: uuid, Make: c.Make, Model: c.Model, Year: c.Year, Trim: c.Trim},
		Match:    client.MatchExactYear,
		Fitments: []client.FitmentGeometry{geometry()},
	}, nil
}

func (f *fakeClient) TireGeometry(_ context.Context, uuid string, _ ...client.CallOption) (*client.FitmentGeometry, error) {
	if err := f.call("TireGeometry", uuid); err != nil {
		return nil, err
	}
	g := geometry()
	return &g, nil
}

// plusSizes has one size on the OEM rim and one needing an XL tire a rim up.
func plusSizes(uuid string) *client.FitmentPlusSizes {
	g := geometry()
	li, kg, sr := 91, 615, "V"
	return &client.FitmentPlusSizes{Fitment: g.Fitment, WindowPct: 3, Front: client.PlusSizeSet{
		OEM: g.OEM, LoadIndex: &li, LoadKg: &kg, SpeedRating: &sr,
		Rims: []client.RimGroup{
			{RimOffset: -1, RimIn: 16, Sizes: []client.PlusSize{}},
			{RimOffset: 0, RimIn: 17, Sizes: []client.PlusSize{{SizeGeometry: g.OEM, OEM: true, Speedometer60: 60, MinLoadIndex: &li, MinSpeedRating: &sr}}},
			{RimOffset: 1, RimIn: 18, Sizes: []client.PlusSize{{SizeGeometry: client.SizeGeometry{Size: "225/45R18", DiameterIn: 25.97}, DiameterDiffPct: -1.3,
				Speedometer60: 60.8, MinLoadIndex: &li, Reinforced: true, MinSpeedRating: &sr}}},
		}}}
}

func (f *fakeClient) TirePlusSizes(_ context.Context, uuid string, _ int, _ ...client.CallOption) (*client.FitmentPlusSizes, error) {
	if err := f.call("TirePlusSizes", uuid); err != nil {
		return nil, err
	}
	return plusSizes(uuid), nil
}

func (f *fakeClient) CarRecalls(_ context.Context, uuid string, _ ...client.CallOption) (*client.CarRecalls, error) {
	if err := f.call("CarRecalls", uuid); err != nil {
		return nil, err
	}
	return &client.CarRecalls{
		Coverage: "US (NHTSA)",
		Recalls: []client.Recall{{
			CampaignNumber: "19V123000", Component: ptr("FUEL SYSTEM, GASOLINE"), ReportDate: ptr("2019-02-11"),
			Summary:     ptr(strings.Repeat("The fuel pump may fail. ", 6)),
			Consequence: ptr("The engine may stall, increasing the risk of a crash."),
			Remedy:      ptr("Dealers will replace the fuel pump, free of charge."),
			ParkOutside: true,
		}},
		Ratings: []client.Rating{{VehicleID: 1, Description: ptr("2019 Toyota Camry 4 DR FWD"), Overall: ptr(5), Front: ptr(4), Side: ptr(5), Rollover: ptr(4)}},
	}, nil
}

func (f *fakeClient) MotorcycleRecalls(_ context.Context, uuid string, _ ...client.CallOption) (*client.MotorcycleRecalls, error) {
	if err := f.call("MotorcycleRecalls", uuid); err != nil {
		return nil, err
	}
	return &client.MotorcycleRecalls{Coverage: "US (NHTSA)", Note: "No match is not a guarantee.", Recalls: []client.Recall{}}, nil
}

func (f *fakeClient) CarComplaints(_ context.Context, uuid string, page, perPage int, _ ...client.CallOption) (*client.Complaints, error) {
	if err := f.call("CarComplaints", uuid); err != nil {
		return nil, err
	}
	return &client.Complaints{
		Source: "NHTSA complaint files 2026-05-01", Meta: client.Meta{Page: page, PerPage: perPage, Total: 7},
		Totals:      client.ComplaintTotals{Complaints: 7, Crashes: 2, Fires: 1, Injuries: 3},
		ByComponent: []client.ComponentCount{{Component: "ENGINE", Complaints: 5}, {Component: "FUEL SYSTEM, GASOLINE", Complaints: 2}},
		Complaints: []client.Complaint{{ODINumber: 11500001, Components: []string{"ENGINE"}, Crash: true, Injuries: 2,
			ReceivedDate: ptr("2023-03-01"), Summary: ptr("The engine stalled on the highway.")}},
	}, nil
}

func (f *fakeClient) MotorcycleComplaints(_ context.Context, uuid string, _, _ int, _ ...client.CallOption) (*client.Complaints, error) {
	if err := f.call("MotorcycleComplaints", uuid); err != nil {
		return nil, err
	}
	return &client.Complaints{Source: "NHTSA complaints API", Complaints: []client.Complaint{}, ByComponent: []client.ComponentCount{}}, nil
}

func (f *fakeClient) DecodeVIN(_ context.Context, vin string, _ ...client.CallOption) (*client.VINReport, error) {
	if err := f.call("DecodeVIN", vin); err != nil {
		return nil, err
	}
	if !strings.EqualFold(vin, fakeVIN) {
		return nil, &client.APIError{Status: 400, Code: client.CodeInvalidVIN, Detail: "the check digit does not match"}
	}
	cars := f.vinCars
	if cars == nil {
		cars = []string{fakeUUID(1)}
	}
	return &client.VINReport{
		VIN: fakeVIN, Make: ptr("Toyota"), Model: ptr("Camry"), Year: ptr(2019), Trim: ptr("LE"),
		BodyClass: ptr("Sedan/Saloon"), VehicleType: ptr("PASSENGER CAR"), Manufacturer: ptr("TOYOTA MOTOR MANUFACTURING, KENTUCKY, INC."),
		Engine:     client.VINEngine{Cylinders: ptr(4), DisplacementL: ptr(2.5), FuelType: ptr("Gasoline")},
		Plant:      client.VINPlant{City: ptr("Georgetown"), State: ptr("Kentucky"), Country: ptr("United States")},
		CheckDigit: client.CheckDigit{Expected: "5", Found: "5", Valid: true},
		WMI:        client.WMI{Code: "4T1", Region: "North America", Country: "United States"},
		Links:      client.VINLinks{Cars: cars, TireSizes: []string{tireFitID}, Motorcycles: f.vinMotos},
		Source:     "NHTSA vPIC",
	}, nil
}

// fakeHIN is the one HIN the fake decodes: a 2019 boat of the fake's boat make.
const fakeHIN = "SER12345A919"

func (f *fakeClient) DecodeHIN(_ context.Context, hin string, _ ...client.CallOption) (*client.HINReport, error) {
	if err := f.call("DecodeHIN", hin); err != nil {
		return nil, err
	}
	if strings.ToUpper(strings.NewReplacer(" ", "", "-", "").Replace(hin)) != fakeHIN {
		return nil, &client.APIError{Status: 400, Code: client.CodeInvalidHIN, Detail: "character 6 is \"O\"", Position: 6}
	}
	return &client.HINReport{
		HIN: fakeHIN, Format: "current", MIC: "SER", Serial: "12345", ProductionMonth: 1, ProductionYear: 2019, ModelYear: ptr(2019),
		Manufacturer: &client.HINManufacturer{MIC: "SER", Company: "SEA RAY BOATS", City: "KNOXVILLE", State: "TN"},
		Issuer:       "manufacturer", Warnings: []client.HINWarning{{Code: 2, Text: "2 - a doubtful \x1b[31mwarning"}},
		Links: client.HINLinks{Makes: []string{"Sea Ray"}, Boats: []string{fakeUUID(3)}},
	}, nil
}

func (f *fakeClient) Lists(_ context.Context, _ ...client.CallOption) ([]client.List, error) {
	if err := f.call("Lists"); err != nil {
		return nil, err
	}
	return []client.List{{
		ID: "l1", Name: "My garage", IsDefault: true,
		Items: []client.ListItem{
			{Type: client.KindCar, UUID: fakeUUID(1), Note: "daily driver", Record: &client.RecordRef{Make: "Toyota", Model: "Camry", Year: 2019}},
			{Type: client.KindBoat, UUID: missingBoat, Missing: true},
			{Type: client.KindVIN, UUID: fakeUUID(9), VIN: ptr(fakeVIN), Note: "Dana's", Record: &client.RecordRef{Make: "Toyota", Model: "Camry", Year: 2019},
				Links: &client.ItemLinks{Cars: []string{fakeUUID(1)}}, Recalls: &client.RecallStatus{Open: []string{"19V001000"}, New: []string{"19V001000"}, CheckedAt: &fakeChecked}},
		},
	}}, nil
}

// fakeChecked is when the garage's VIN was checked for recalls.
var fakeChecked = time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)

// errUnavailable is a server error for the error-path tests.
var errUnavailable = errors.New("vds: 503 upstream_unavailable: NHTSA is unavailable")
