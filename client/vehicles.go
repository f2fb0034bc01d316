package client

import (
	"context"
	"fmt"
	"iter"
	"net/url"
	"strconv"
	"strings"
)

// Kind names a record type of the catalog, as list items and agent tools spell it.
type Kind string

const (
	KindCar        Kind = "car"
	KindMotorcycle Kind = "motorcycle"
	KindBoat       Kind = "boat"
	KindTireSize   Kind = "tire_size"
	// KindVIN is a saved VIN in a list, never a catalog record.
	KindVIN Kind = "vin"
)

// Kinds lists every record kind in display order.
var Kinds = []Kind{KindCar, KindMotorcycle, KindBoat, KindTireSize}

// ParseKind accepts a kind, its plural and aliases ("tire", "tire-size"...), in any case.
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

// Query types send a parameter only when set; pointers where 0 is a bound.

// CarQuery filters GET /v1/cars. It must narrow (docs/api.md, Lists).
type CarQuery struct {
	Make, Model            string
	Year, YearMin, YearMax int
	// Q is free text: every word must prefix-match make, model, trim or type.
	Q string
	// Page is 1..40, PerPage 1..10 (default 10).
	Page, PerPage int
	Body          string
	// FuelType is a name or code such as "bev".
	FuelType  string
	DriveType string
	EVOnly    bool
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

// MotorcycleQuery filters GET /v1/motorcycles, narrowing as CarQuery does.
type MotorcycleQuery struct {
	Make, Model            string
	Year, YearMin, YearMax int
	Q                      string
	Page, PerPage          int
	MotorcycleType         string
	VehicleType            string
}

func (q MotorcycleQuery) values() url.Values {
	v := commonValues(q.Make, q.Model, q.Year, q.YearMin, q.YearMax, q.Q, q.Page, q.PerPage)
	setString(v, "motorcycle_type", q.MotorcycleType)
	setString(v, "vehicle_type", q.VehicleType)
	return v
}

// BoatQuery filters GET /v1/boats, narrowing as CarQuery does.
type BoatQuery struct {
	Make, Model            string
	Year, YearMin, YearMax int
	Q                      string
	Page, PerPage          int
	HullType               string
	FuelType               string
	ModelType              string
	// HPMin, HPMax, LengthMin and LengthMax (feet) are inclusive; nil is unbounded.
	HPMin, HPMax         *int
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

// TireSizeQuery filters GET /v1/tire-sizes, narrowing as CarQuery does.
type TireSizeQuery struct {
	Make, Model            string
	Year, YearMin, YearMax int
	Q                      string
	Page, PerPage          int
	// TireSize with a load index and speed rating ("235/55R19 101V") matches those too.
	TireSize string
}

func (q TireSizeQuery) values() url.Values {
	v := commonValues(q.Make, q.Model, q.Year, q.YearMin, q.YearMax, q.Q, q.Page, q.PerPage)
	setString(v, "tire_size", q.TireSize)
	return v
}

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

// recordPath checks the uuid, so no value can address another endpoint.
func recordPath(collection, id, suffix string) (string, error) {
	if !validUUID(id) {
		return "", fmt.Errorf("%w: %q", ErrInvalidUUID, id)
	}
	return collection + "/" + id + suffix, nil
}

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

// modelsQuery leaves a missing make to the server's missing_parameter error.
func modelsQuery(mk string) url.Values {
	v := url.Values{}
	setString(v, "make", mk)
	return v
}

// Makes returns every make of a kind with its record count (CarMakes and friends are typed).
func (c *Client) Makes(ctx context.Context, kind Kind, opts ...CallOption) ([]MakeCount, error) {
	base, err := kind.collectionPath()
	if err != nil {
		return nil, err
	}
	return getSlice[MakeCount](ctx, c, base+"/makes", nil, opts)
}

// Models returns the models of a make with year ranges.
func (c *Client) Models(ctx context.Context, kind Kind, vehicleMake string, opts ...CallOption) ([]ModelRange, error) {
	base, err := kind.collectionPath()
	if err != nil {
		return nil, err
	}
	return getSlice[ModelRange](ctx, c, base+"/models", modelsQuery(vehicleMake), opts)
}

// ListCars returns one page of cars matching q (GET /v1/cars).
func (c *Client) ListCars(ctx context.Context, q CarQuery, opts ...CallOption) (*CarPage, error) {
	return listPage[Car](ctx, c, carsPath, q.values(), opts)
}

// AllCars iterates over every car matching q from q.Page on, one charged
// call a page (see Meta.Truncated).
func (c *Client) AllCars(ctx context.Context, q CarQuery, opts ...CallOption) iter.Seq2[Car, error] {
	return all(ctx, q.Page, func(ctx context.Context, page int) (*CarPage, error) {
		q.Page = page
		return c.ListCars(ctx, q, opts...)
	})
}

// GetCar returns one car (GET /v1/cars/{uuid}).
func (c *Client) GetCar(ctx context.Context, uuid string, opts ...CallOption) (*Car, error) {
	return getRecord[Car](ctx, c, carsPath, uuid, "", opts)
}

// CarTireSizes returns a car's tire fitments with geometry (GET /v1/cars/{uuid}/tire-sizes).
func (c *Client) CarTireSizes(ctx context.Context, uuid string, opts ...CallOption) (*CarTires, error) {
	return getRecord[CarTires](ctx, c, carsPath, uuid, "/tire-sizes", opts)
}

// CarMakes returns every car make with its record count (GET /v1/cars/makes).
func (c *Client) CarMakes(ctx context.Context, opts ...CallOption) ([]MakeCount, error) {
	return getSlice[MakeCount](ctx, c, carsPath+"/makes", nil, opts)
}

// CarModels returns a car make's models with years (GET /v1/cars/models).
func (c *Client) CarModels(ctx context.Context, vehicleMake string, opts ...CallOption) ([]ModelRange, error) {
	return getSlice[ModelRange](ctx, c, carsPath+"/models", modelsQuery(vehicleMake), opts)
}

// CarBodyTypes returns every body type with its count (GET /v1/cars/body-types).
func (c *Client) CarBodyTypes(ctx context.Context, opts ...CallOption) ([]NameCount, error) {
	return getSlice[NameCount](ctx, c, carsPath+"/body-types", nil, opts)
}

// ListMotorcycles returns one page of motorcycles matching q (GET /v1/motorcycles).
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

// GetMotorcycle returns one record (GET /v1/motorcycles/{uuid}).
func (c *Client) GetMotorcycle(ctx context.Context, uuid string, opts ...CallOption) (*Motorcycle, error) {
	return getRecord[Motorcycle](ctx, c, motorcyclesPath, uuid, "", opts)
}

// MotorcycleMakes returns every make with its count (GET /v1/motorcycles/makes).
func (c *Client) MotorcycleMakes(ctx context.Context, opts ...CallOption) ([]MakeCount, error) {
	return getSlice[MakeCount](ctx, c, motorcyclesPath+"/makes", nil, opts)
}

// MotorcycleModels returns a make's models with years (GET /v1/motorcycles/models).
func (c *Client) MotorcycleModels(ctx context.Context, vehicleMake string, opts ...CallOption) ([]ModelRange, error) {
	return getSlice[ModelRange](ctx, c, motorcyclesPath+"/models", modelsQuery(vehicleMake), opts)
}

// MotorcycleTypes returns every riding type with class and count (GET /v1/motorcycles/types).
func (c *Client) MotorcycleTypes(ctx context.Context, opts ...CallOption) ([]TypeCount, error) {
	return getSlice[TypeCount](ctx, c, motorcyclesPath+"/types", nil, opts)
}

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

// GetBoat returns one boat (GET /v1/boats/{uuid}).
func (c *Client) GetBoat(ctx context.Context, uuid string, opts ...CallOption) (*Boat, error) {
	return getRecord[Boat](ctx, c, boatsPath, uuid, "", opts)
}

// BoatMakes returns every boat make with its count (GET /v1/boats/makes).
func (c *Client) BoatMakes(ctx context.Context, opts ...CallOption) ([]MakeCount, error) {
	return getSlice[MakeCount](ctx, c, boatsPath+"/makes", nil, opts)
}

// BoatModels returns a boat make's models with years (GET /v1/boats/models).
func (c *Client) BoatModels(ctx context.Context, vehicleMake string, opts ...CallOption) ([]ModelRange, error) {
	return getSlice[ModelRange](ctx, c, boatsPath+"/models", modelsQuery(vehicleMake), opts)
}

// BoatHullTypes returns every hull type with its count (GET /v1/boats/hull-types).
func (c *Client) BoatHullTypes(ctx context.Context, opts ...CallOption) ([]NameCount, error) {
	return getSlice[NameCount](ctx, c, boatsPath+"/hull-types", nil, opts)
}

// ListTireSizes returns one page of fitments matching q (GET /v1/tire-sizes).
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

// GetTireSize returns one fitment (GET /v1/tire-sizes/{uuid}).
func (c *Client) GetTireSize(ctx context.Context, uuid string, opts ...CallOption) (*TireFitment, error) {
	return getRecord[TireFitment](ctx, c, tireSizesPath, uuid, "", opts)
}

// TireGeometry returns a fitment's size geometry (GET /v1/tire-sizes/{uuid}/geometry).
func (c *Client) TireGeometry(ctx context.Context, uuid string, opts ...CallOption) (*FitmentGeometry, error) {
	return getRecord[FitmentGeometry](ctx, c, tireSizesPath, uuid, "/geometry", opts)
}

// TireSizeMakes returns every fitment make with its count (GET /v1/tire-sizes/makes).
func (c *Client) TireSizeMakes(ctx context.Context, opts ...CallOption) ([]MakeCount, error) {
	return getSlice[MakeCount](ctx, c, tireSizesPath+"/makes", nil, opts)
}

// TireSizeModels returns a make's fitment models (GET /v1/tire-sizes/models).
func (c *Client) TireSizeModels(ctx context.Context, vehicleMake string, opts ...CallOption) ([]ModelRange, error) {
	return getSlice[ModelRange](ctx, c, tireSizesPath+"/models", modelsQuery(vehicleMake), opts)
}
