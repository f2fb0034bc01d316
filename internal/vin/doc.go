// Package vin validates and decodes 17-character vehicle identification
// numbers locally, without any network call.
//
// A VIN (ISO 3779, and 49 CFR 565 in the United States) has three parts:
//
//	1HG CM8263 3A004352
//	WMI VDS    VIS
//
// The world manufacturer identifier (positions 1–3) names the maker and,
// through its first one or two characters, the country (ISO 3780). The
// vehicle descriptor section (4–9) describes the vehicle; in North America
// position 9 is a check digit over the other 16 characters. The vehicle
// identifier section (10–17) holds the model year code (10), the plant code
// (11) and the serial number (12–17).
//
// The service validates every VIN here before it asks the upstream decoder,
// so that malformed input is rejected at once, is never charged and never
// reaches the upstream. What can be computed from the characters alone (the
// check digit, the model-year candidates and the WMI's country) is computed
// here too, and reported next to the upstream's answer.
//
// Input is lenient only about surrounding white space and letter case,
// which carry no meaning; everything else is strict.
package vin
