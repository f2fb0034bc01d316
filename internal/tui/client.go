package tui

import (
	"context"

	"github.com/vds-dev/vds/client"
)

// Client is the part of the SDK the TUI uses, and exactly that, so tests
// can drive the UI with a fake and a reader can see every call it makes.
type Client interface {
	Makes(ctx context.Context, kind client.Kind, opts ...client.CallOption) ([]client.MakeCount, error)
	Models(ctx context.Context, kind client.Kind, vehicleMake string, opts ...client.CallOption) ([]client.ModelRange, error)

	ListCars(ctx context.Context, q client.CarQuery, opts ...client.CallOption) (*client.CarPage, error)
	ListMotorcycles(ctx context.Context, q client.MotorcycleQuery, opts ...client.CallOption) (*client.MotorcyclePage, error)
	ListBoats(ctx context.Context, q client.BoatQuery, opts ...client.CallOption) (*client.BoatPage, error)
	ListTireSizes(ctx context.Context, q client.TireSizeQuery, opts ...client.CallOption) (*client.TireSizePage, error)

	GetCar(ctx context.Context, uuid string, opts ...client.CallOption) (*client.Car, error)
	GetMotorcycle(ctx context.Context, uuid string, opts ...client.CallOption) (*client.Motorcycle, error)
	GetBoat(ctx context.Context, uuid string, opts ...client.CallOption) (*client.Boat, error)
	GetTireSize(ctx context.Context, uuid string, opts ...client.CallOption) (*client.TireFitment, error)

	CarTireSizes(ctx context.Context, uuid string, opts ...client.CallOption) (*client.CarTires, error)
	TireGeometry(ctx context.Context, uuid string, opts ...client.CallOption) (*client.FitmentGeometry, error)
	TirePlusSizes(ctx context.Context, uuid string, window int, opts ...client.CallOption) (*client.FitmentPlusSizes, error)
	CarRecalls(ctx context.Context, uuid string, opts ...client.CallOption) (*client.CarRecalls, error)
	MotorcycleRecalls(ctx context.Context, uuid string, opts ...client.CallOption) (*client.MotorcycleRecalls, error)
	CarComplaints(ctx context.Context, uuid string, page, perPage int, opts ...client.CallOption) (*client.Complaints, error)
	MotorcycleComplaints(ctx context.Context, uuid string, page, perPage int, opts ...client.CallOption) (*client.Complaints, error)
	DecodeVIN(ctx context.Context, vin string, opts ...client.CallOption) (*client.VINReport, error)
	DecodeHIN(ctx context.Context, hin string, opts ...client.CallOption) (*client.HINReport, error)

	Lists(ctx context.Context, opts ...client.CallOption) ([]client.List, error)
}

var _ Client = (*client.Client)(nil)
