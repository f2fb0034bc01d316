package catalog

import (
	"fmt"
	"strings"
)

// Car body types.
var Bodies = []string{"Sedan", "Coupe", "Hatchback", "Wagon", "Convertible", "SUV", "Pickup", "Minivan", "Van"}

// Car fuel types. The names are spelled out (GASOLINE, BATTERY ELECTRIC
// VEHICLE (BEV)) so clients can filter on the name they see in responses.
const (
	FuelGasoline = "GASOLINE"
	FuelDiesel   = "DIESEL"
	FuelFlex     = "FLEX FUEL (FFV)"
	FuelHEV      = "HYBRID ELECTRIC VEHICLE (HEV)"
	FuelPHEV     = "PLUG-IN HYBRID ELECTRIC VEHICLE (PHEV)"
	FuelBEV      = "BATTERY ELECTRIC VEHICLE (BEV)"
	FuelFCEV     = "FUEL CELL ELECTRIC VEHICLE (FCEV)"
	// Natural-gas and propane cars (dedicated or bi-fuel with gasoline), a
	// few dozen of EPA's rows.
	FuelCNG = "COMPRESSED NATURAL GAS (CNG)"
	FuelLPG = "LIQUEFIED PETROLEUM GAS (LPG)"
)

// CarFuels lists every accepted car fuel type.
var CarFuels = []string{FuelGasoline, FuelDiesel, FuelFlex, FuelHEV, FuelPHEV, FuelBEV, FuelFCEV, FuelCNG, FuelLPG}

// Drives lists the accepted drive types.
var Drives = []string{"FWD", "RWD", "AWD", "4WD"}

// Motorcycle riding types and the broad vehicle class each belongs to. The
// spec names the Motorcycle and ATV/UTV classes; snowmobiles, golf carts
// and low-speed vehicles, which vPIC's powersports catalog holds by the
// thousand, have their own.
const (
	ClassMotorcycle = "Motorcycle"
	ClassATVUTV     = "ATV/UTV"
	ClassSnowmobile = "Snowmobile"
	ClassGolfLSV    = "Golf Cart / LSV"
)

// MotorcycleTypes lists the accepted riding types, grouped by class (see ClassOf).
var MotorcycleTypes = []string{
	"Street Motorcycle", "Off-road Motorcycle", "Dual Sport Motorcycle", "Scooter", "Three-Wheeler",
	"ATV", "UTV / SXS", "Personal Watercraft", "Snowmobile", "Golf Cart", "Low Speed Vehicle",
}

// VehicleClasses lists the accepted motorcycle vehicle classes.
var VehicleClasses = []string{ClassMotorcycle, ClassATVUTV, ClassSnowmobile, ClassGolfLSV}

// ClassOf returns the vehicle class of a riding type.
func ClassOf(motorcycleType string) string {
	switch motorcycleType {
	case "Street Motorcycle", "Off-road Motorcycle", "Dual Sport Motorcycle", "Scooter", "Three-Wheeler":
		return ClassMotorcycle
	case "Snowmobile":
		return ClassSnowmobile
	case "Golf Cart", "Low Speed Vehicle":
		return ClassGolfLSV
	default:
		return ClassATVUTV
	}
}

// HullTypes lists the accepted boat hull materials.
var HullTypes = []string{"Fiberglass", "Aluminum", "Composite", "Steel", "Wood"}

// BoatFuels lists the accepted boat fuel types.
var BoatFuels = []string{"Gas", "Diesel", "Electric"}

// VesselCategories lists the accepted boat categories (a boat's model_type).
var VesselCategories = []string{
	"Bass Boat", "Bay Boat", "Bowrider", "Center Console", "Cruiser", "Cuddy Cabin",
	"Deck Boat", "Dual Console", "Flats Boat", "Jet Boat", "Jon Boat", "Motor Yacht",
	"Pontoon", "Ski and Wakeboard", "Sport Fishing", "Trawler", "Walkaround",
}

// canonical returns the member of allowed equal to v ignoring case and
// surrounding space, so inputs like "suv" or "awd" are stored as "SUV" and "AWD".
func canonical(v string, allowed []string) (string, bool) {
	v = strings.TrimSpace(v)
	for _, a := range allowed {
		if strings.EqualFold(a, v) {
			return a, true
		}
	}
	return "", false
}

// enumError describes a value outside an enumeration, listing the accepted ones.
func enumError(v string, allowed []string) string {
	return fmt.Sprintf("%q is not one of %s", v, strings.Join(allowed, ", "))
}
