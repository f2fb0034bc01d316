package cli

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/client"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/textfmt"
)

// ----- makes -----

type makesOptions struct {
	Kind client.Kind
}

func newMakesCmd(f *Factory, runF func(*makesOptions) error) *cobra.Command {
	opts := &makesOptions{}
	return clientCmd(f, &cobra.Command{
		Use:               "makes TYPE",
		Short:             "List the makes of a record type with their record counts",
		Example:           "  vds makes car\n  vds makes boats --json",
		Args:              exactArgs("TYPE"),
		ValidArgsFunction: completeType,
		RunE:              runCmd(f, opts, runF, makesRun, kindArg(&opts.Kind)),
	})
}

func makesRun(ctx context.Context, f *Factory, opts *makesOptions) error {
	c, err := f.Client()
	if err != nil {
		return err
	}
	makes, err := c.Makes(ctx, opts.Kind)
	return f.show(makes, err, func() error {
		t := f.IO.newTable("MAKE", "RECORDS")
		for _, m := range makes {
			t.row(m.Name, strconv.Itoa(m.Count))
		}
		return t.flush()
	})
}

// ----- models -----

type modelsOptions struct {
	Kind client.Kind
	Make string
}

func newModelsCmd(f *Factory, runF func(*modelsOptions) error) *cobra.Command {
	opts := &modelsOptions{}
	cmd := clientCmd(f, &cobra.Command{
		Use:               "models TYPE --make MAKE",
		Short:             "List the models of a make with their record counts and model years",
		Example:           "  vds models car --make Toyota",
		Args:              exactArgs("TYPE"),
		ValidArgsFunction: completeType,
		RunE:              runCmd(f, opts, runF, modelsRun, kindArg(&opts.Kind), required("make", &opts.Make)),
	})
	cmd.Flags().StringVar(&opts.Make, "make", "", "make, e.g. Toyota (required)")
	_ = cmd.RegisterFlagCompletionFunc("make", completeMake(f, ""))
	return cmd
}

func modelsRun(ctx context.Context, f *Factory, opts *modelsOptions) error {
	c, err := f.Client()
	if err != nil {
		return err
	}
	models, err := c.Models(ctx, opts.Kind, opts.Make)
	return f.show(models, err, func() error {
		if len(models) == 0 && f.IO.OutTTY {
			_, err := fmt.Fprintf(f.IO.Out, "No %s of make %q: see vds makes %s\n", kindNoun(opts.Kind), opts.Make, typeArg(opts.Kind))
			return err
		}
		t := f.IO.newTable("MODEL", "RECORDS", "FIRST YEAR", "LAST YEAR")
		for _, m := range models {
			t.row(m.Name, strconv.Itoa(m.Count), strconv.Itoa(m.YearMin), strconv.Itoa(m.YearMax))
		}
		return t.flush()
	})
}

func typeArg(k client.Kind) string {
	if k == client.KindTireSize {
		return "tire"
	}
	return string(k)
}

// ----- search -----

// searchOptions holds the parsed search: Query is a client.CarQuery,
// MotorcycleQuery, BoatQuery or TireSizeQuery, matching Kind.
type searchOptions struct {
	Kind  client.Kind
	Query any
}

// searchFlags are the raw values of every search flag; which ones apply
// depends on TYPE.
type searchFlags struct {
	make, model, q              string
	year, yearMin, yearMax      int
	page, perPage               int
	body, fuelType, driveType   string
	evOnly                      bool
	motorcycleType, vehicleType string
	hullType, modelType         string
	hpMin, hpMax                int
	lengthMin, lengthMax        float64
	tireSize                    string
}

// typeFlags names the type-specific search flags and the types they apply
// to; the common flags apply to all.
var typeFlags = []struct {
	name  string
	kinds []client.Kind
}{
	{"body", []client.Kind{client.KindCar}},
	{"fuel-type", []client.Kind{client.KindCar, client.KindBoat}},
	{"drive-type", []client.Kind{client.KindCar}},
	{"ev-only", []client.Kind{client.KindCar}},
	{"motorcycle-type", []client.Kind{client.KindMotorcycle}},
	{"vehicle-type", []client.Kind{client.KindMotorcycle}},
	{"hull-type", []client.Kind{client.KindBoat}},
	{"model-type", []client.Kind{client.KindBoat}},
	{"hp-min", []client.Kind{client.KindBoat}},
	{"hp-max", []client.Kind{client.KindBoat}},
	{"length-min", []client.Kind{client.KindBoat}},
	{"length-max", []client.Kind{client.KindBoat}},
	{"tire-size", []client.Kind{client.KindTireSize}},
}

// checkTypeFlags refuses a type-specific flag given for another type, with
// the list of the flags that do apply.
func checkTypeFlags(cmd *cobra.Command, k client.Kind) error {
	var valid []string
	for _, tf := range typeFlags {
		if slices.Contains(tf.kinds, k) {
			valid = append(valid, "--"+tf.name)
		}
	}
	for _, tf := range typeFlags {
		if cmd.Flags().Changed(tf.name) && !slices.Contains(tf.kinds, k) {
			return usageErrorf(fmt.Errorf("--%s does not apply to %s; their filters are %s", tf.name, kindNoun(k), strings.Join(valid, ", ")))
		}
	}
	return nil
}

// query builds the typed query of kind k. Boat bounds are pointers in the
// client because 0 is a real bound, so they are set only when given.
func (sf *searchFlags) query(cmd *cobra.Command, k client.Kind) any {
	intPtr := func(name string, v int) *int {
		if !cmd.Flags().Changed(name) {
			return nil
		}
		return &v
	}
	floatPtr := func(name string, v float64) *float64 {
		if !cmd.Flags().Changed(name) {
			return nil
		}
		return &v
	}
	switch k {
	case client.KindCar:
		return client.CarQuery{Make: sf.make, Model: sf.model, Year: sf.year, YearMin: sf.yearMin, YearMax: sf.yearMax,
			Q: sf.q, Page: sf.page, PerPage: sf.perPage, Body: sf.body, FuelType: sf.fuelType, DriveType: sf.driveType, EVOnly: sf.evOnly}
	case client.KindMotorcycle:
		return client.MotorcycleQuery{Make: sf.make, Model: sf.model, Year: sf.year, YearMin: sf.yearMin, YearMax: sf.yearMax,
			Q: sf.q, Page: sf.page, PerPage: sf.perPage, MotorcycleType: sf.motorcycleType, VehicleType: sf.vehicleType}
	case client.KindBoat:
		return client.BoatQuery{Make: sf.make, Model: sf.model, Year: sf.year, YearMin: sf.yearMin, YearMax: sf.yearMax,
			Q: sf.q, Page: sf.page, PerPage: sf.perPage, HullType: sf.hullType, FuelType: sf.fuelType, ModelType: sf.modelType,
			HPMin: intPtr("hp-min", sf.hpMin), HPMax: intPtr("hp-max", sf.hpMax),
			LengthMin: floatPtr("length-min", sf.lengthMin), LengthMax: floatPtr("length-max", sf.lengthMax)}
	}
	return client.TireSizeQuery{Make: sf.make, Model: sf.model, Year: sf.year, YearMin: sf.yearMin, YearMax: sf.yearMax,
		Q: sf.q, Page: sf.page, PerPage: sf.perPage, TireSize: sf.tireSize}
}

func newSearchCmd(f *Factory, runF func(*searchOptions) error) *cobra.Command {
	opts := &searchOptions{}
	sf := &searchFlags{}
	cmd := clientCmd(f, &cobra.Command{
		Use:   "search TYPE [--make M] [--model M] [--year Y | --year-min Y --year-max Y] [--q TEXT] [filters]",
		Short: "Search the catalog: one page of records matching the filters",
		Long: `Search one record type. The server asks every search to narrow the
catalog: give --make, --model, --q, a type filter, --year, or both
--year-min and --year-max at most 9 years apart. Pages hold up to 10
records (--per-page) and pages 1 to 40 can be reached (--page).

Filters by TYPE:
  car          --body, --fuel-type, --drive-type (FWD, RWD, AWD, 4WD), --ev-only
  motorcycle   --motorcycle-type, --vehicle-type (Motorcycle, ATV/UTV,
               Snowmobile, Golf Cart / LSV)
  boat         --hull-type, --fuel-type (Gas, Diesel, Electric), --model-type,
               --hp-min, --hp-max, --length-min, --length-max (feet)
  tire         --tire-size (an OEM size such as 225/45R17)

--json prints the page's records, an array: the API's data. The page
metadata (total, pages) is in vds api's output:
vds api 'cars?make=Toyota' --jq .meta`,
		Example: `  vds search cars --make Toyota --model Camry --year 2022
  vds search car --q "model 3" --ev-only
  vds search boats --hull-type Aluminum --length-min 18 --json
  vds search tire --tire-size 225/45R17 | cut -f1`,
		Args:              exactArgs("TYPE"),
		ValidArgsFunction: completeType,
		RunE: func(cmd *cobra.Command, args []string) error {
			bindQuery := func([]string) error {
				if err := checkTypeFlags(cmd, opts.Kind); err != nil {
					return err
				}
				opts.Query = sf.query(cmd, opts.Kind)
				return nil
			}
			return runCmd(f, opts, runF, searchRun, kindArg(&opts.Kind), bindQuery)(cmd, args)
		},
	})
	fl := cmd.Flags()
	fl.StringVar(&sf.make, "make", "", "make, exact and case-insensitive")
	fl.StringVar(&sf.model, "model", "", "model, exact and case-insensitive")
	fl.IntVar(&sf.year, "year", 0, "model year")
	fl.IntVar(&sf.yearMin, "year-min", 0, "first model year of a window")
	fl.IntVar(&sf.yearMax, "year-max", 0, "last model year of a window")
	fl.StringVar(&sf.q, "q", "", "free text: every word must prefix-match make, model, trim or type")
	fl.IntVar(&sf.page, "page", 0, "page number, 1 to 40 (default 1)")
	fl.IntVar(&sf.perPage, "per-page", 0, "records per page, 1 to 10 (default 10)")
	fl.StringVar(&sf.body, "body", "", "car body type, e.g. SUV")
	fl.StringVar(&sf.fuelType, "fuel-type", "", "car fuel type (name or code such as bev), or boat fuel: Gas, Diesel, Electric")
	fl.StringVar(&sf.driveType, "drive-type", "", "car drive: FWD, RWD, AWD or 4WD")
	fl.BoolVar(&sf.evOnly, "ev-only", false, "only electrified cars (BEV, PHEV, HEV, FCEV)")
	fl.StringVar(&sf.motorcycleType, "motorcycle-type", "", "motorcycle riding type, e.g. Scooter")
	fl.StringVar(&sf.vehicleType, "vehicle-type", "", "motorcycle class: Motorcycle, ATV/UTV, Snowmobile or Golf Cart / LSV")
	fl.StringVar(&sf.hullType, "hull-type", "", "boat hull material, e.g. Aluminum")
	fl.StringVar(&sf.modelType, "model-type", "", "boat category, e.g. Center Console")
	fl.IntVar(&sf.hpMin, "hp-min", 0, "boat horsepower, at least")
	fl.IntVar(&sf.hpMax, "hp-max", 0, "boat horsepower, at most")
	fl.Float64Var(&sf.lengthMin, "length-min", 0, "boat length in feet, at least")
	fl.Float64Var(&sf.lengthMax, "length-max", 0, "boat length in feet, at most")
	fl.StringVar(&sf.tireSize, "tire-size", "", "OEM tire size, e.g. 225/45R17")
	_ = cmd.RegisterFlagCompletionFunc("make", completeMake(f, ""))
	_ = cmd.RegisterFlagCompletionFunc("drive-type", fixedValues("FWD", "RWD", "AWD", "4WD"))
	_ = cmd.RegisterFlagCompletionFunc("vehicle-type", fixedValues(catalog.VehicleClasses...))
	_ = cmd.RegisterFlagCompletionFunc("fuel-type", fixedValues("Gas", "Diesel", "Electric", "bev", "phev", "hev"))
	for _, name := range []string{"model", "q", "body", "motorcycle-type", "hull-type", "model-type", "tire-size"} {
		_ = cmd.RegisterFlagCompletionFunc(name, cobra.NoFileCompletions)
	}
	return cmd
}

func searchRun(ctx context.Context, f *Factory, opts *searchOptions) error {
	c, err := f.Client()
	if err != nil {
		return err
	}
	var (
		page any
		meta client.Meta
		next int
	)
	t := f.IO.newTable()
	switch q := opts.Query.(type) {
	case client.CarQuery:
		p, err := c.ListCars(ctx, q)
		if err != nil {
			return err
		}
		page, meta, next = p.Data, p.Meta, p.NextPage
		t.header = []string{"UUID", "YEAR", "MAKE", "MODEL", "TRIM", "BODY", "ENGINE", "DRIVE", "MPG"}
		for _, r := range p.Data {
			t.row(r.UUID, strconv.Itoa(r.Year), r.Make, r.Model, dashIfEmpty(r.Trim), dashIfEmpty(r.Body),
				dashIfEmpty(r.Engine), dashIfEmpty(r.DriveType), mpgCell(r.MPGCombined, r.FuelType))
		}
	case client.MotorcycleQuery:
		p, err := c.ListMotorcycles(ctx, q)
		if err != nil {
			return err
		}
		page, meta, next = p.Data, p.Meta, p.NextPage
		t.header = []string{"UUID", "YEAR", "MAKE", "MODEL", "TYPE", "CLASS", "CC", "HP"}
		for _, r := range p.Data {
			t.row(r.UUID, strconv.Itoa(r.Year), r.Make, r.Model, dashIfEmpty(r.MotorcycleType), dashIfEmpty(r.VehicleType),
				optInt(r.DisplacementCC), optFloat(r.PowerHP, 1))
		}
	case client.BoatQuery:
		p, err := c.ListBoats(ctx, q)
		if err != nil {
			return err
		}
		page, meta, next = p.Data, p.Meta, p.NextPage
		t.header = []string{"UUID", "YEAR", "MAKE", "MODEL", "TYPE", "LENGTH (ft)", "HP", "HULL", "FUEL"}
		for _, r := range p.Data {
			t.row(r.UUID, strconv.Itoa(r.Year), r.Make, r.Model, dashIfEmpty(r.ModelType), formatFloat(r.LengthFt, 1),
				strconv.Itoa(r.HP), dashIfEmpty(r.HullType), dashIfEmpty(r.FuelType))
		}
	case client.TireSizeQuery:
		p, err := c.ListTireSizes(ctx, q)
		if err != nil {
			return err
		}
		page, meta, next = p.Data, p.Meta, p.NextPage
		t.header = []string{"UUID", "YEAR", "MAKE", "MODEL", "TRIM", "SIZE", "REAR", "ALTERNATES", "REAR ALTERNATES"}
		for _, r := range p.Data {
			t.row(r.UUID, strconv.Itoa(r.Year), r.Make, r.Model, dashIfEmpty(r.Trim), client.RatedSize(r.TireSize, r.LoadIndex, r.SpeedRating), rearSize(&r),
				dashIfEmpty(strings.Join(r.AlternateSizes, ",")), dashIfEmpty(strings.Join(r.RearAlternateSizes, ",")))
		}
	default:
		return fmt.Errorf("search: unexpected query %T", opts.Query)
	}
	for _, sg := range meta.Suggestions {
		fmt.Fprintln(f.IO.ErrOut, textfmt.Printable(suggestionNote(sg)))
	}
	if f.JSON {
		return f.writeJSON(page)
	}
	if !f.IO.OutTTY {
		return t.flush()
	}
	if len(t.rows) == 0 {
		_, err := fmt.Fprintf(f.IO.Out, "No %s match.\n", kindNoun(opts.Kind))
		return err
	}
	if err := t.flush(); err != nil {
		return err
	}
	return printPageFooter(f.IO, meta, next)
}

// suggestionNote reads a make or model no record has: "no Toyta; did you mean Toyota?".
func suggestionNote(s client.Suggestion) string {
	switch len(s.Names) {
	case 0:
		return fmt.Sprintf("no %s %s in the catalog", s.Param, s.Value)
	case 1:
		return fmt.Sprintf("no %s; did you mean %s?", s.Value, s.Names[0])
	}
	last := len(s.Names) - 1
	return fmt.Sprintf("no %s; did you mean %s or %s?", s.Value, strings.Join(s.Names[:last], ", "), s.Names[last])
}

// printPageFooter says where the page sits in the results, on a terminal.
func printPageFooter(s *IOStreams, m client.Meta, next int) error {
	line := fmt.Sprintf("\nPage %d of %d, %d match", m.Page, max(m.TotalPages, 1), m.Total)
	if m.Total != 1 {
		line += "es"
	}
	if next > 0 {
		line += fmt.Sprintf("; next: --page %d", next)
	}
	if m.Truncated {
		line += fmt.Sprintf(". Only the first %d pages can be reached: narrow the search to see the rest", m.MaxPage)
	}
	_, err := fmt.Fprintln(s.Out, line+".")
	return err
}

// ----- get -----

type getOptions struct {
	Kind client.Kind
	UUID string
}

// checkUUID refuses a malformed uuid before any request, as a usage error.
func checkUUID(s string) error {
	if len(s) != 36 || strings.Count(s, "-") != 4 {
		return usageErrorf(fmt.Errorf("%q is not a UUID (want the 36-character form, e.g. 0b6f7c1e-...)", s))
	}
	return nil
}

func newGetCmd(f *Factory, runF func(*getOptions) error) *cobra.Command {
	opts := &getOptions{}
	return clientCmd(f, &cobra.Command{
		Use:               "get TYPE UUID",
		Short:             "Show one catalog record",
		Example:           "  vds get car a80b48b2-b909-5d42-9c53-0af15fe3ba82\n  vds get tire c43fb9e6-bb47-57ba-b444-5873c637607c --jq .tire_size",
		Args:              exactArgs("TYPE", "UUID"),
		ValidArgsFunction: completeType,
		RunE:              runCmd(f, opts, runF, getRun, kindArg(&opts.Kind), uuidArg(1, &opts.UUID)),
	})
}

func getRun(ctx context.Context, f *Factory, opts *getOptions) error {
	c, err := f.Client()
	if err != nil {
		return err
	}
	var (
		rec    any
		fields [][2]string
	)
	switch opts.Kind {
	case client.KindCar:
		r, err := c.GetCar(ctx, opts.UUID)
		if err != nil {
			return err
		}
		rec, fields = r, carFields(r)
	case client.KindMotorcycle:
		r, err := c.GetMotorcycle(ctx, opts.UUID)
		if err != nil {
			return err
		}
		rec = r
		fields = [][2]string{
			{label("uuid"), r.UUID}, {label("make"), r.Make}, {label("model"), r.Model}, {label("year"), strconv.Itoa(r.Year)},
			{label("motorcycle_type"), dashIfEmpty(r.MotorcycleType)}, {label("vehicle_type"), dashIfEmpty(r.VehicleType)},
			{label("displacement_cc"), optInt(r.DisplacementCC)}, {label("engine_type"), dashIfEmpty(r.EngineType)},
			{label("power_hp"), optFloat(r.PowerHP, 1)}, {label("body_class"), dashIfEmpty(r.BodyClass)},
			{label("fuel_type"), dashIfEmpty(r.FuelType)}, {label("source"), dashIfEmpty(r.Source)},
		}
	case client.KindBoat:
		r, err := c.GetBoat(ctx, opts.UUID)
		if err != nil {
			return err
		}
		rec = r
		fields = [][2]string{
			{label("uuid"), r.UUID}, {label("make"), r.Make}, {label("model"), r.Model}, {label("year"), strconv.Itoa(r.Year)},
			{label("model_type"), dashIfEmpty(r.ModelType)}, {label("length_ft"), formatFloat(r.LengthFt, 1)},
			{label("beam_ft"), formatFloat(r.BeamFt, 1)}, {label("dry_weight_lbs"), strconv.Itoa(r.DryWeightLbs)},
			{label("engine_count"), strconv.Itoa(r.EngineCount)}, {label("hp"), strconv.Itoa(r.HP)},
			{label("hull_type"), dashIfEmpty(r.HullType)}, {label("fuel_type"), dashIfEmpty(r.FuelType)},
		}
	default:
		r, err := c.GetTireSize(ctx, opts.UUID)
		if err != nil {
			return err
		}
		rec = r
		fields = [][2]string{
			{label("uuid"), r.UUID}, {label("make"), r.Make}, {label("model"), r.Model}, {label("year"), strconv.Itoa(r.Year)},
			{label("trim"), dashIfEmpty(r.Trim)},
			{label("tire_size"), client.RatedSize(r.TireSize, r.LoadIndex, r.SpeedRating)}, {label("rear_tire_size"), rearSize(r)},
			{label("alternate_sizes"), dashIfEmpty(strings.Join(r.AlternateSizes, ", "))},
			{label("rear_alternate_sizes"), dashIfEmpty(strings.Join(r.RearAlternateSizes, ", "))},
		}
		for _, kv := range r.Known() {
			fields = append(fields, [2]string{label(kv[0]), kv[1]})
		}
	}
	if f.JSON {
		return f.writeJSON(rec)
	}
	t := f.IO.newTable()
	for _, kv := range fields {
		t.row(kv[0], kv[1])
	}
	return t.flush()
}

// label is the shared label of a record field, named by its JSON name.
func label(name string) string { return catalog.FieldLabel(name) }

// mpgCell is a car's combined figure for an MPG column, marked MPGe where
// it is one.
func mpgCell(v *float64, fuelType string) string {
	if u := catalog.EconomyUnit(fuelType); v != nil && u != "MPG" {
		return optFloat(v, 1) + " " + u
	}
	return optFloat(v, 1)
}

func carFields(r *client.Car) [][2]string {
	return [][2]string{
		{label("uuid"), r.UUID}, {label("make"), r.Make}, {label("model"), r.Model}, {label("year"), strconv.Itoa(r.Year)},
		{label("trim"), dashIfEmpty(r.Trim)}, {label("body"), dashIfEmpty(r.Body)}, {label("engine"), dashIfEmpty(r.Engine)},
		{label("fuel_type"), dashIfEmpty(r.FuelType)}, {label("drive_type"), dashIfEmpty(r.DriveType)},
		{label("transmission"), dashIfEmpty(r.Transmission)},
		{label("displacement_l"), optFloat(r.DisplacementL, 1)}, {label("cylinders"), optInt(r.Cylinders)},
		{label("electrified"), yesNo(r.Electrified)}, {label("epa_id"), optInt(r.EPAID)},
		{catalog.CarFieldLabel("mpg_city", r.FuelType), optFloat(r.MPGCity, 1)},
		{catalog.CarFieldLabel("mpg_highway", r.FuelType), optFloat(r.MPGHighway, 1)},
		{catalog.CarFieldLabel("mpg_combined", r.FuelType), optFloat(r.MPGCombined, 1)}, {label("epa_range_miles"), optInt(r.EPARangeMiles)},
		{label("epa_electric_range_miles"), optInt(r.EPAElectricRangeMiles)},
		{label("annual_fuel_cost"), optInt(r.AnnualFuelCost)}, {label("co2_gpm"), optFloat(r.CO2GPM, 0)},
	}
}

// notFound is a not-found error (exit 3) with the CLI's own message.
func notFound(format string, args ...any) error {
	return &codedError{code: ExitNotFound, err: fmt.Errorf(format, args...)}
}
