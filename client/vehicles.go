package client

import (
	"context"
	"fmt"
	"iter"
	"net/url"
	"strconv"
	"strings"
)

// Kind names a record type of the catalog, as list items and the agent
// tools spell it.
type Kind string

// The four record kinds.
const (
	KindCar        Kind = "car"
	KindMotorcycle Kind = "motorcycle"
	KindBoat       Kind = "boat"
	KindTireSize   Kind = "tire_size"
)

// Kinds lists every record kind in display order.
var Kinds = []Kind{KindCar, KindMotorcycle, KindBoat, KindTireSize}

// ParseKind accepts a kind name, its plural, and the aliases people type
// ("tire", "tire-size", "tire_sizes"...), in any case.
func ParseKind(s string) (Kind, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "car", "cars":
		return KindCar, nil
	case "motorcycle", "motorcycles":
		return KindMotorcycle, nil
	case "boat", "boats":
		return KindBoat, nil
	case "tire", "tires", "tire_size", "tire_sizes", "tire-size", "tire-sizes":
		return KindTireSize, nil
	}
	return "", fmt.Errorf("unknown record type %q: use car, motorcycle, boat or tire_size", s)
}

// collectionPath returns the API path of a kind's records.
func (k Kind) collectionPath() (string, error) {
	switch k {
	case KindCar:
		return apiPrefix + "/cars", nil
	case KindMotorcycle:
		return apiPrefix + "/motorcycles", nil
	case KindBoat:
		return apiPrefix + "/boats", nil
	case KindTireSize:
		return apiPrefix + "/tire-sizes", nil
	}
	return "", fmt.Errorf("vds: unknown record type %q: use car, motorcycle, boat or tire_size", string(k))
}

const (
	carsPath        = apiPrefix + "/cars"
	motorcyclesPath = apiPrefix + "/motorcycles"
	boatsPath       = apiPrefix + "/boats"
	tireSizesPath   = apiPrefix + "/tire-sizes"
)

// The server rejects empty and unknown parameters strictly, so the query
// types below send a parameter only when its field is set: "" (after
// trimming) and 0 mean absent. Pointers are used where 0 is a meaningful
// bound (a boat's hp_min=0 still narrows a query).

// CarQuery filters GET /v1/cars. A query must narrow the catalog: set Make,
// Model, Q, a car filter, Year, or YearMin and YearMax at most 9 apart.
type CarQuery struct {
	// Make and Model match exactly, case-insensitively.
	Make, Model string
	// Year is an exact model year; YearMin and YearMax bound a window.
	Year, YearMin, YearMax int
	// Q is free text: every word must prefix-match make, model, trim or type.
	Q string
	// Page is 1..40 (default 1); PerPage is 1..10 (default 10).
	Page, PerPage int
	// Body is a body type, e.g. "SUV" (see CarBodyTypes).
	Body string
	// FuelType is a fuel type name or code, e.g. "BATTERY ELECTRIC VEHICLE
	// (BEV)" or "bev".
	FuelType string
	// DriveType is FWD, RWD, AWD or 4WD.
	DriveType string
	// EVOnly keeps only electrified cars (BEV, PHEV and HEV).
	EVOnly bool
}

func (q CarQuery) values() url.Values {
	v := commonValues(q.Make, q.Model, q.Year, q.YearMin, q.YearMax, q.Q, q.Page, q.PerPage)
	setString(v, "body", q.Body)
	setString(v, "fuel_type", q.FuelType)
	setString(v, "drive_type", q.DriveType)
	if q.EVOnly {
		v.Set("ev_only", "1")
	}
	return v
}

// MotorcycleQuery filters GET /v1/motorcycles. The narrowing rule of
// CarQuery applies, with MotorcycleType and VehicleType as the filters.
type MotorcycleQuery struct {
	// Make and Model match exactly, case-insensitively.
	Make, Model string
	// Year is an exact model year; YearMin and YearMax bound a window.
	Year, YearMin, YearMax int
	// Q is free text.
	Q string
	// Page is 1..40 (default 1); PerPage is 1..10 (default 10).
	Page, PerPage int
	// MotorcycleType is a riding type, e.g. "Scooter" (see MotorcycleTypes).
	MotorcycleType string
	// VehicleType is the broad class: "Motorcycle" or "ATV/UTV".
	VehicleType string
}

func (q MotorcycleQuery) values() url.Values {
	v := commonValues(q.Make, q.Model, q.Year, q.YearMin, q.YearMax, q.Q, q.Page, q.PerPage)
	setString(v, "motorcycle_type", q.MotorcycleType)
	setString(v, "vehicle_type", q.VehicleType)
	return v
}

// BoatQuery filters GET /v1/boats. The narrowing rule of CarQuery applies,
// with every boat filter (bounds included) counting as narrowing.
type BoatQuery struct {
	// Make and Model match exactly, case-insensitively.
	Make, Model string
	// Year is an exact model year; YearMin and YearMax bound a window.
	Year, YearMin, YearMax int
	// Q is free text.
	Q string
	// Page is 1..40 (default 1); PerPage is 1..10 (default 10).
	Page, PerPage int
	// HullType is the hull material, e.g. "Aluminum" (see BoatHullTypes).
	HullType string
	// FuelType is "Gas", "Diesel" or "Electric".
	FuelType string
	// ModelType is the vessel category, e.g. "Center Console".
	ModelType string
	// HPMin and HPMax bound the horsepower, inclusive; nil means unbounded.
	HPMin, HPMax *int
	// LengthMin and LengthMax bound the length in feet; nil means unbounded.
	LengthMin, LengthMax *float64
}

func (q BoatQuery) values() url.Values {
	v := commonValues(q.Make, q.Model, q.Year, q.YearMin, q.YearMax, q.Q, q.Page, q.PerPage)
	setString(v, "hull_type", q.HullType)
	setString(v, "fuel_type", q.FuelType)
	setString(v, "model_type", q.ModelType)
	if q.HPMin != nil {
		v.Set("hp_min", strconv.Itoa(*q.HPMin))
	}
	if q.HPMax != nil {
		v.Set("hp_max", strconv.Itoa(*q.HPMax))
	}
	if q.LengthMin != nil {
		v.Set("length_min", strconv.FormatFloat(*q.LengthMin, 'f', -1, 64))
	}
	if q.LengthMax != nil {
		v.Set("length_max", strconv.FormatFloat(*q.LengthMax, 'f', -1, 64))
	}
	return v
}

// TireSizeQuery filters GET /v1/tire-sizes. The narrowing rule of CarQuery
// applies, with TireSize as the filter.
type TireSizeQuery struct {
	// Make and Model match exactly, case-insensitively.
	Make, Model string
	// Year is an exact model year; YearMin and YearMax bound a window.
	Year, YearMin, YearMax int
	// Q is free text.
	Q string
	// Page is 1..40 (default 1); PerPage is 1..10 (default 10).
	Page, PerPage int
	// TireSize is an OEM size such as "225/45R17"; a load index and speed
	// rating ("235/55R19 101V") must then match too.
	TireSize string
}

func (q TireSizeQuery) values() url.Values {
	v := commonValues(q.Make, q.Model, q.Year, q.YearMin, q.YearMax, q.Q, q.Page, q.PerPage)
	setString(v, "tire_size", q.TireSize)
	return v
}

// commonValues encodes the parameters every list endpoint accepts.
func commonValues(mk, model string, year, yearMin, yearMax int, q string, page, perPage int) url.Values {
	v := url.Values{}
	setString(v, "make", mk)
	setString(v, "model", model)
	setInt(v, "year", year)
	setInt(v, "year_min", yearMin)
	setInt(v, "year_max", yearMax)
	setString(v, "q", q)
	setInt(v, "page", page)
	setInt(v, "per_page", perPage)
	return v
}

func setString(v url.Values, name, s string) {
	if s = strings.TrimSpace(s); s != "" {
		v.Set(name, s)
	}
}

func setInt(v url.Values, name string, n int) {
	if n != 0 {
		v.Set(name, strconv.Itoa(n))
	}
}

// recordPath returns collection/uuid[/suffix] after checking the uuid, so
// that no value can address another endpoint.
func recordPath(collection, id, suffix string) (string, error) {
	if !validUUID(id) {
		return "", fmt.Errorf("%w: %q", ErrInvalidUUID, id)
	}
	return collection + "/" + id + suffix, nil
}

// validUUID accepts the canonical 8-4-4-4-12 hex form in either case: the
// one spelling the server accepts.
func validUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
}

func getRecord[T any](ctx context.Context, c *Client, collection, id, suffix string, opts []CallOption) (*T, error) {
	path, err := recordPath(collection, id, suffix)
	if err != nil {
		return nil, err
	}
	return getPtr[T](ctx, c, path, nil, opts)
}

// modelsQuery sends make only when given, so that a missing make is the
// server's missing_parameter error rather than a silently different query.
func modelsQuery(mk string) url.Values {
	v := url.Values{}
	setString(v, "make", mk)
	return v
}

// Makes returns every make of a kind with its record count, for callers
// that take the kind as data (CarMakes and friends are the typed forms).
func (c *Client) Makes(ctx context.Context, kind Kind, opts ...CallOption) ([]MakeCount, error) {
	base, err := kind.collectionPath()
	if err != nil {
		return nil, err
	}
	return getSlice[MakeCount](ctx, c, base+"/makes", nil, opts)
}

// Models returns the models of one make of a kind with year ranges. An
// unknown make gives an empty list; an empty make is a missing_parameter
// *APIError.
func (c *Client) Models(ctx context.Context, kind Kind, vehicleMake string, opts ...CallOption) ([]ModelRange, error) {
	base, err := kind.collectionPath()
	if err != nil {
		return nil, err
	}
	return getSlice[ModelRange](ctx, c, base+"/models", modelsQuery(vehicleMake), opts)
}

// ----- cars -----

// ListCars returns one page of cars matching q (GET /v1/cars).
func (c *Client) ListCars(ctx context.Context, q CarQuery, opts ...CallOption) (*CarPage, error) {
	return listPage[Car](ctx, c, carsPath, q.values(), opts)
}

// AllCars iterates over every car matching q from q.Page on, fetching
// pages as it goes (each page is one charged call). Paging reaches at most
// 400 records; see Meta.Truncated on ListCars to know whether more match.
func (c *Client) AllCars(ctx context.Context, q CarQuery, opts ...CallOption) iter.Seq2[Car, error] {
	return all(ctx, q.Page, func(ctx context.Context, page int) (*CarPage, error) {
		q.Page = page
		return c.ListCars(ctx, q, opts...)
	})
}

// GetCar returns one car by uuid (GET /v1/cars/{uuid}).
func (c *Client) GetCar(ctx context.Context, uuid string, opts ...CallOption) (*Car, error) {
	return getRecord[Car](ctx, c, carsPath, uuid, "", opts)
}

// CarTireSizes returns the tire fitments of a car, with geometry, matched
// by make and model and preferring its model year
// (GET /v1/cars/{uuid}/tire-sizes). A car without fitments gets Match
// MatchNone and no fitments, not an error.
func (c *Client) CarTireSizes(ctx context.Context, uuid string, opts ...CallOption) (*CarTires, error) {
	return getRecord[CarTires](ctx, c, carsPath, uuid, "/tire-sizes", opts)
}

// CarMakes returns every car make with its record count (GET /v1/cars/makes).
func (c *Client) CarMakes(ctx context.Context, opts ...CallOption) ([]MakeCount, error) {
	return getSlice[MakeCount](ctx, c, carsPath+"/makes", nil, opts)
}

// CarModels returns the models of a car make with year ranges
// (GET /v1/cars/models?make=...).
func (c *Client) CarModels(ctx context.Context, vehicleMake string, opts ...CallOption) ([]ModelRange, error) {
	return getSlice[ModelRange](ctx, c, carsPath+"/models", modelsQuery(vehicleMake), opts)
}

// CarBodyTypes returns every car body type with its record count
// (GET /v1/cars/body-types).
func (c *Client) CarBodyTypes(ctx context.Context, opts ...CallOption) ([]NameCount, error) {
	return getSlice[NameCount](ctx, c, carsPath+"/body-types", nil, opts)
}

// ----- motorcycles -----

// ListMotorcycles returns one page of motorcycle-dataset records matching
// q (GET /v1/motorcycles).
func (c *Client) ListMotorcycles(ctx context.Context, q MotorcycleQuery, opts ...CallOption) (*MotorcyclePage, error) {
	return listPage[Motorcycle](ctx, c, motorcyclesPath, q.values(), opts)
}

// AllMotorcycles iterates over every record matching q, as AllCars does.
func (c *Client) AllMotorcycles(ctx context.Context, q MotorcycleQuery, opts ...CallOption) iter.Seq2[Motorcycle, error] {
	return all(ctx, q.Page, func(ctx context.Context, page int) (*MotorcyclePage, error) {
		q.Page = page
		return c.ListMotorcycles(ctx, q, opts...)
	})
}

// GetMotorcycle returns one record by uuid (GET /v1/motorcycles/{uuid}).
func (c *Client) GetMotorcycle(ctx context.Context, uuid string, opts ...CallOption) (*Motorcycle, error) {
	return getRecord[Motorcycle](ctx, c, motorcyclesPath, uuid, "", opts)
}

// MotorcycleMakes returns every manufacturer with its record count
// (GET /v1/motorcycles/makes).
func (c *Client) MotorcycleMakes(ctx context.Context, opts ...CallOption) ([]MakeCount, error) {
	return getSlice[MakeCount](ctx, c, motorcyclesPath+"/makes", nil, opts)
}

// MotorcycleModels returns the models of a manufacturer with year ranges
// (GET /v1/motorcycles/models?make=...).
func (c *Client) MotorcycleModels(ctx context.Context, vehicleMake string, opts ...CallOption) ([]ModelRange, error) {
	return getSlice[ModelRange](ctx, c, motorcyclesPath+"/models", modelsQuery(vehicleMake), opts)
}

// MotorcycleTypes returns every riding type with its vehicle class and
// record count (GET /v1/motorcycles/types).
func (c *Client) MotorcycleTypes(ctx context.Context, opts ...CallOption) ([]TypeCount, error) {
	return getSlice[TypeCount](ctx, c, motorcyclesPath+"/types", nil, opts)
}

// ----- boats -----

// ListBoats returns one page of boats matching q (GET /v1/boats).
func (c *Client) ListBoats(ctx context.Context, q BoatQuery, opts ...CallOption) (*BoatPage, error) {
	return listPage[Boat](ctx, c, boatsPath, q.values(), opts)
}

// AllBoats iterates over every boat matching q, as AllCars does.
func (c *Client) AllBoats(ctx context.Context, q BoatQuery, opts ...CallOption) iter.Seq2[Boat, error] {
	return all(ctx, q.Page, func(ctx context.Context, page int) (*BoatPage, error) {
		q.Page = page
		return c.ListBoats(ctx, q, opts...)
	})
}

// GetBoat returns one boat by uuid (GET /v1/boats/{uuid}).
func (c *Client) GetBoat(ctx context.Context, uuid string, opts ...CallOption) (*Boat, error) {
	return getRecord[Boat](ctx, c, boatsPath, uuid, "", opts)
}

// BoatMakes returns every boat manufacturer with its vessel count
// (GET /v1/boats/makes).
func (c *Client) BoatMakes(ctx context.Context, opts ...CallOption) ([]MakeCount, error) {
	return getSlice[MakeCount](ctx, c, boatsPath+"/makes", nil, opts)
}

// BoatModels returns the models of a boat manufacturer with year ranges
// (GET /v1/boats/models?make=...).
func (c *Client) BoatModels(ctx context.Context, vehicleMake string, opts ...CallOption) ([]ModelRange, error) {
	return getSlice[ModelRange](ctx, c, boatsPath+"/models", modelsQuery(vehicleMake), opts)
}

// BoatHullTypes returns every hull type with its vessel count
// (GET /v1/boats/hull-types).
func (c *Client) BoatHullTypes(ctx context.Context, opts ...CallOption) ([]NameCount, error) {
	return getSlice[NameCount](ctx, c, boatsPath+"/hull-types", nil, opts)
}

// ----- tire fitments -----

// ListTireSizes returns one page of tire fitments matching q
// (GET /v1/tire-sizes).
func (c *Client) ListTireSizes(ctx context.Context, q TireSizeQuery, opts ...CallOption) (*TireSizePage, error) {
	return listPage[TireFitment](ctx, c, tireSizesPath, q.values(), opts)
}

// AllTireSizes iterates over every fitment matching q, as AllCars does.
func (c *Client) AllTireSizes(ctx context.Context, q TireSizeQuery, opts ...CallOption) iter.Seq2[TireFitment, error] {
	return all(ctx, q.Page, func(ctx context.Context, page int) (*TireSizePage, error) {
		q.Page = page
		return c.ListTireSizes(ctx, q, opts...)
	})
}

// GetTireSize returns one tire fitment by uuid (GET /v1/tire-sizes/{uuid}).
func (c *Client) GetTireSize(ctx context.Context, uuid string, opts ...CallOption) (*TireFitment, error) {
	return getRecord[TireFitment](ctx, c, tireSizesPath, uuid, "", opts)
}

// TireGeometry returns the geometry of a fitment's OEM size and of each
// alternate compared with it (GET /v1/tire-sizes/{uuid}/geometry).
func (c *Client) TireGeometry(ctx context.Context, uuid string, opts ...CallOption) (*FitmentGeometry, error) {
	return getRecord[FitmentGeometry](ctx, c, tireSizesPath, uuid, "/geometry", opts)
}

// TireSizeMakes returns every make in the fitment dataset with its record
// count (GET /v1/tire-sizes/makes).
func (c *Client) TireSizeMakes(ctx context.Context, opts ...CallOption) ([]MakeCount, error) {
	return getSlice[MakeCount](ctx, c, tireSizesPath+"/makes", nil, opts)
}

// TireSizeModels returns the models of a make in the fitment dataset
// (GET /v1/tire-sizes/models?make=...).
func (c *Client) TireSizeModels(ctx context.Context, vehicleMake string, opts ...CallOption) ([]ModelRange, error) {
	return getSlice[ModelRange](ctx, c, tireSizesPath+"/models", modelsQuery(vehicleMake), opts)
}
