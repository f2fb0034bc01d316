// Package epa reads the EPA fuel-economy table (fueleconomy.gov's
// vehicles.csv, zipped or plain, from a file or an http(s) URL) and matches
// catalog cars to its rows, so that `vds enrich` can fill a car's mpg_city,
// mpg_highway, mpg_combined, epa_range_miles, annual_fuel_cost and co2_gpm.
//
// # Reading
//
// [Load] opens the source with [Open] and parses it with [Parse]. Columns are
// found by header name (case-insensitive), never by position, because the EPA
// has added columns over the years; rows may be ragged (a missing trailing
// cell reads as empty) and empty or NA numbers read as 0. A malformed number, a
// missing id, year or make, or a duplicate id fails the whole load with an
// error naming the file, line and column ([*FormatError]): enrich is
// all-or-nothing, so a half-read table must never be published.
//
// # Matching rule
//
// [Table.Match] picks at most one EPA row for a car. The rule is deterministic:
// the same table and car always give the same row.
//
//  1. Candidates are the rows of the car's model year and make, and of its
//     model family: the row's baseModel equals the car's model once both are
//     folded (lower case, every character that is not a letter or a digit
//     dropped, so "F-150", "F150" and "f 150" are one family). The make is
//     folded the same way.
//  2. A candidate is eligible only when its fuel class equals the car's fuel
//     type. The class comes from atvType (Hybrid → HEV, Plug-in Hybrid → PHEV,
//     EV → BEV, FCV → FCEV, FFV → FLEX FUEL, Diesel → DIESEL) or, when atvType
//     is empty, from fuelType1 (gasoline grades → GASOLINE, Diesel, Electricity
//     → BEV, Hydrogen → FCEV). CNG, LPG and bi-fuel rows have no catalog
//     class and never match. Fuel is required, not just scored, because it
//     changes the figures by a factor (a hybrid's mpg, an EV's MPGe): a wrong
//     drive costs a mile or two per gallon, a wrong fuel gives nonsense, and
//     an empty field is better than a wrong one.
//  3. Eligible candidates are ranked by [Score.Points], which orders them
//     lexicographically by: drive equal (EPA's "Front-Wheel Drive" is FWD,
//     "Rear-Wheel Drive" RWD, "All-Wheel Drive" AWD, "4-Wheel Drive" and
//     "Part-time 4-Wheel Drive" 4WD; "4-Wheel or All-Wheel Drive" equals both
//     AWD and 4WD, "2-Wheel Drive" both FWD and RWD), then displacement equal
//     (within 0.05 L; no engine on both sides counts as equal), then cylinders
//     equal, then transmission equal (EPA's trany text, case-insensitive),
//     then the number of the car's trim words that EPA's model text also has
//     (the catalog's "Performance" trim finds "Model 3 Performance AWD"
//     rather than "Model 3 Long Range AWD": EPA files trims that share an
//     engine and a drive as separate rows, which ties on every other fact).
//     The highest rank wins; a tie goes to the lowest EPA id, which is stable
//     across downloads.
//  4. Only when no row of the family is eligible, the same ranking runs over
//     the make's rows of that year whose model starts with the car's model at
//     a word boundary (the first words of `model`, folded, equal the folded
//     car model: "F-150" finds "F150 Pickup 4WD" but "M3" never finds
//     "M340i"). [Score.Prefix] marks such matches.
//  5. Otherwise the car is unmatched and keeps null EPA fields.
//
// Every match therefore has the car's make, model family and year.
//
// # Values
//
// [Economy] turns a row into a car's fields: mpg from city08, highway08 and
// comb08 (for EVs and fuel-cell cars these are MPGe, as the EPA gives them;
// for plug-in hybrids the gasoline-mode figures of fuelType1),
// epa_range_miles from range when it is above zero, annual_fuel_cost from
// fuelCost08 and co2_gpm from co2TailpipeGpm.
package epa
