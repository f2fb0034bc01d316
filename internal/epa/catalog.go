package epa

import (
	"strings"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/ingest"
)

// Cars builds the car catalog from the table, one car per EPA row, its id
// pinned (docs/data.md, the EPA catalog). Rows the catalog cannot hold fail
// the whole build with an *ingest.InvalidError naming lines and columns.
func Cars(t *Table) ([]catalog.Car, error) {
	cars := make([]catalog.Car, 0, len(t.Rows))
	var probs []ingest.RecordError
	suvs := map[[2]string]bool{}
	for i := range t.Rows {
		if r := &t.Rows[i]; strings.Contains(strings.ToLower(r.VClass), "sport utility") {
			suvs[[2]string{r.Make, r.BaseModel}] = true
		}
	}
	for i := range t.Rows {
		r := &t.Rows[i]
		c := catalog.Car{
			Make: r.Make, Model: r.BaseModel, SourceModel: r.BaseModel, Year: r.Year, Trim: variant(r),
			Body: marketBody(r, &t.facts[i], suvs), FuelType: carFuel(r), DriveType: driveOf(r),
			Transmission: r.Trany, FuelEconomy: Economy(*r),
		}
		if c.Model == "" {
			c.Model, c.SourceModel = r.Model, r.Model
		}
		c.Model = CanonicalModel(c.Make, c.Model)
		if c.FuelType != catalog.FuelBEV && c.FuelType != catalog.FuelFCEV {
			c.DisplacementL, c.Cylinders = positive(r.Displ), positive(r.Cylinders)
		}
		for _, fe := range c.Normalize() {
			probs = append(probs, ingest.RecordError{File: t.file, Line: t.lines[i], Field: t.column(fe.Field, r), Reason: fe.Reason})
		}
		c.UUID = catalog.EPACarUUID(r.ID)
		cars = append(cars, c)
	}
	if len(probs) > 0 {
		return nil, &ingest.InvalidError{Problems: probs}
	}
	return cars, nil
}

// marketNames are the EPA baseModels spelled apart from the name the maker,
// vPIC and tire fitments use; each is the market's spelling with its spaces
// or hyphens changed (docs/data.md, Model names).
var marketNames = map[[2]string]string{
	{"Ford", "F150"}:               "F-150",
	{"Ford", "F250"}:               "F-250",
	{"Chevrolet", "S10 Pickup"}:    "S-10 Pickup",
	{"Mitsubishi", "3000 GT"}:      "3000GT",
	{"Fiat", "500 L"}:              "500L",
	{"Fiat", "500 X"}:              "500X",
	{"Toyota", "GR 86"}:            "GR86",
	{"BMW", "Active E"}:            "ActiveE",
	{"Ferrari", "F 40"}:            "F40",
	{"Ferrari", "575 M Maranello"}: "575M Maranello",
}

// CanonicalModel is the catalog's name of an EPA model: the market's
// spelling where EPA's differs (marketNames), else EPA's.
func CanonicalModel(mk, model string) string {
	if name, ok := marketNames[[2]string{mk, model}]; ok {
		return name
	}
	return model
}

var sourceColumns = map[string]string{
	"make": colMake, "model": colBaseModel, "year": colYear, "trim": colModel, "body": colVClass,
	"fuel_type": colFuelType1, "drive_type": colDrive, "transmission": colTrany, "displacement_l": colDispl,
	"cylinders": colCylinders, "epa_id": colID, "mpg_city": colCity, "mpg_highway": colHighway, "mpg_combined": colComb,
	"epa_range_miles": colRange, "epa_electric_range_miles": colRangeA, "annual_fuel_cost": colFuelCost, "co2_gpm": colCO2,
}

// column names a catalog field's source column as the file spells it.
func (t *Table) column(field string, r *Row) string {
	col := sourceColumns[field]
	if col == colBaseModel && r.BaseModel == "" {
		col = colModel
	}
	if name, ok := t.names[col]; ok {
		return name
	}
	return field
}

// variant is EPA's model text after its baseModel ("Camry Hybrid LE" →
// "Hybrid LE"), or all of it when it does not start with the baseModel
// ("New Range Rover P400 MHEV" under "Range Rover").
func variant(r *Row) string {
	if rest, ok := strings.CutPrefix(r.Model, r.BaseModel); ok && r.BaseModel != "" {
		return strings.TrimSpace(rest)
	}
	if r.Model == r.BaseModel {
		return ""
	}
	return r.Model
}

// carFuel is the catalog fuel of a row: fuelClass, and natural gas or
// propane (dedicated or bi-fuel) for the rows it leaves out.
func carFuel(r *Row) string {
	if f := fuelClass(r); f != "" {
		return f
	}
	a, f := strings.ToLower(r.ATVType), strings.ToLower(r.FuelType1)
	switch {
	case strings.Contains(a, "lpg") || strings.Contains(f, "propane"):
		return catalog.FuelLPG
	case strings.Contains(a, "cng") || strings.Contains(f, "natural gas"):
		return catalog.FuelCNG
	}
	return ""
}

// driveOf maps EPA's drive text to one catalog drive: its umbrella
// "4-Wheel or All-Wheel Drive" is AWD, a truck's "2-Wheel Drive" RWD and a
// car's FWD. EPA's 1984 rows give none, and the car's stays empty.
func driveOf(r *Row) string {
	switch d := strings.ToLower(collapse(r.Drive)); d {
	case "front-wheel drive":
		return "FWD"
	case "rear-wheel drive":
		return "RWD"
	case "all-wheel drive", "4-wheel or all-wheel drive":
		return "AWD"
	case "4-wheel drive", "part-time 4-wheel drive":
		return "4WD"
	case "2-wheel drive":
		if truckClass(r.VClass) {
			return "RWD"
		}
		return "FWD"
	}
	return ""
}

func truckClass(vclass string) bool {
	c := strings.ToLower(vclass)
	return strings.Contains(c, "pickup") || strings.Contains(c, "van") || strings.Contains(c, "utility") ||
		strings.Contains(c, "special purpose")
}

// marketBodies are families the market sells as one body that EPA's class
// and volumes miss: crossovers it classes as cars, roadsters it classes as
// two-seaters, and the four-door RX-8 coupe (docs/data.md, Model names).
var marketBodies = map[[2]string]string{
	{"BMW", "X1"}: "SUV", {"BMW", "X2"}: "SUV", {"Audi", "Q3"}: "SUV", {"Hyundai", "Venue"}: "SUV",
	{"Nissan", "Kicks"}: "SUV", {"Nissan", "Cube"}: "SUV", {"Toyota", "C-HR"}: "SUV", {"Hyundai", "Ioniq 5"}: "SUV",
	{"Genesis", "GV60"}: "SUV", {"Ferrari", "Purosangue"}: "SUV",
	{"BMW", "Z4"}: "Convertible", {"Porsche", "Boxster"}: "Convertible", {"Mazda", "MX-5"}: "Convertible",
	{"Mazda", "MX-5 Miata"}: "Convertible", {"Mercedes-Benz", "SLK-Class"}: "Convertible",
	{"Mercedes-Benz", "SL-Class"}: "Convertible", {"Honda", "S2000"}: "Convertible", {"Saturn", "SKY"}: "Convertible",
	{"Pontiac", "Solstice"}: "Convertible", {"Mazda", "RX-8"}: "Coupe",
}

// wagonFamilies sell a wagon beside the SUV EPA classes under their name.
var wagonFamilies = map[[2]string]bool{{"BMW", "M"}: true, {"Volvo", "V60"}: true, {"Fiat", "500"}: true}

// marketBody is the body the row's words name, else its family's market
// body, else SUV for a station wagon of a family EPA classes as an SUV in
// some row (a crossover's early or two-wheel-drive years), else bodyOf.
func marketBody(r *Row, f *rowFacts, suvs map[[2]string]bool) string {
	fam := [2]string{r.Make, r.BaseModel}
	switch b, ok := marketBodies[fam]; {
	case wordBodies(f.words) != 0:
	case ok:
		return b
	case suvs[fam] && !wagonFamilies[fam] && strings.Contains(strings.ToLower(r.VClass), "station wagon"):
		return "SUV"
	}
	return bodyOf(r, f.bodies)
}

// bodyOf picks one catalog body from what the row says (rowBodies); a car
// row whose volumes name several is a sedan, hatchback or coupe, in that
// order, and a special-purpose vehicle an SUV unless its text says van.
func bodyOf(r *Row, said bodyMask) string {
	class := strings.ToLower(r.VClass)
	switch {
	case said != 0 && said&(said-1) == 0:
		return catalog.Bodies[bitIndex(said)]
	case strings.Contains(class, "special purpose"):
		if strings.Contains(strings.ToLower(r.Model), "van") {
			return "Van"
		}
		return "SUV"
	case said&bodyBit("Sedan") != 0:
		return "Sedan"
	case said&bodyBit("Hatchback") != 0:
		return "Hatchback"
	case said&bodyBit("Coupe") != 0:
		return "Coupe"
	case strings.Contains(class, "two seaters"):
		return "Coupe"
	}
	return "Sedan"
}

func bitIndex(m bodyMask) int {
	for i := range catalog.Bodies {
		if m&(1<<i) != 0 {
			return i
		}
	}
	return 0
}
