package vin

import "strings"

const (
	regionAfrica       = "Africa"
	regionAsia         = "Asia"
	regionEurope       = "Europe"
	regionNorthAmerica = "North America"
	regionOceania      = "Oceania"
	regionSouthAmerica = "South America"
)

// wmiOrder orders second characters within a block (ISO 3780): letters, then digits, 0 last.
const wmiOrder = "ABCDEFGHJKLMNPRSTUVWXYZ1234567890"

// regionOf gives the region of a WMI's first character (ISO 3780).
func regionOf(c byte) string {
	switch {
	case 'A' <= c && c <= 'H':
		return regionAfrica
	case 'J' <= c && c <= 'R':
		return regionAsia
	case 'S' <= c && c <= 'Z':
		return regionEurope
	case '1' <= c && c <= '5':
		return regionNorthAmerica
	case c == '6' || c == '7':
		return regionOceania
	case c == '8' || c == '9':
		return regionSouthAmerica
	}
	return ""
}

// countryRange assigns the WMIs from..to (in wmiOrder, same first character)
// to a country; region, when set, overrides regionOf.
type countryRange struct {
	from, to string
	country  string
	region   string
}

// countries holds well-known, stable ISO 3780 / SAE blocks only: a block not
// listed gives no country, which is better than a wrong one.
var countries = []countryRange{
	{from: "AA", to: "AH", country: "South Africa"},
	{from: "BF", to: "BK", country: "Kenya"},
	{from: "DA", to: "DE", country: "Egypt"},
	{from: "DF", to: "DK", country: "Morocco"},

	{from: "JA", to: "J0", country: "Japan"}, // JHM Honda, JT Toyota
	{from: "KA", to: "KE", country: "Sri Lanka"},
	{from: "KF", to: "KK", country: "Israel"},
	{from: "KL", to: "KR", country: "South Korea"}, // KMH Hyundai, KNA Kia
	{from: "LA", to: "L0", country: "China"},       // LVS Ford Changan
	{from: "MA", to: "ME", country: "India"},       // MA3 Maruti Suzuki
	{from: "MF", to: "MK", country: "Indonesia"},
	{from: "ML", to: "MR", country: "Thailand"}, // MR0 Toyota
	{from: "NF", to: "NK", country: "Pakistan"},
	{from: "NL", to: "NR", country: "Turkey"}, // NMT Toyota, NM0 Ford Otosan
	{from: "PA", to: "PE", country: "Philippines"},
	{from: "PF", to: "PK", country: "Singapore"},
	{from: "PL", to: "PR", country: "Malaysia"}, // PL1 Proton
	{from: "RA", to: "RE", country: "United Arab Emirates"},
	{from: "RF", to: "RK", country: "Taiwan"},
	{from: "RL", to: "RR", country: "Vietnam"},

	{from: "SA", to: "SM", country: "United Kingdom"}, // SAJ Jaguar, SAL Land Rover
	{from: "SN", to: "ST", country: "Germany"},        // allocated to East Germany
	{from: "SU", to: "SZ", country: "Poland"},
	{from: "S1", to: "S4", country: "Latvia"},
	{from: "TA", to: "TH", country: "Switzerland"},
	{from: "TJ", to: "TP", country: "Czech Republic"}, // TMB Škoda
	{from: "TR", to: "TV", country: "Hungary"},        // TRU Audi, TSM Suzuki
	{from: "TW", to: "T1", country: "Portugal"},
	{from: "UH", to: "UM", country: "Denmark"},
	{from: "UN", to: "UT", country: "Ireland"},
	{from: "UU", to: "UZ", country: "Romania"},  // UU1 Dacia
	{from: "U5", to: "U7", country: "Slovakia"}, // U5Y Kia
	{from: "VA", to: "VE", country: "Austria"},
	{from: "VF", to: "VR", country: "France"}, // VF1 Renault, VF3 Peugeot
	{from: "VS", to: "VW", country: "Spain"},  // VSS SEAT
	{from: "V3", to: "V5", country: "Croatia"},
	{from: "V6", to: "V0", country: "Estonia"},
	{from: "WA", to: "W0", country: "Germany"}, // WBA BMW, WDB Mercedes-Benz, WVW Volkswagen
	{from: "XA", to: "XE", country: "Bulgaria"},
	{from: "XF", to: "XK", country: "Greece"},
	{from: "XL", to: "XR", country: "Netherlands"}, // XLR DAF
	{from: "XS", to: "XW", country: "Russia"},      // allocated to the USSR; XTA Lada
	{from: "XX", to: "X2", country: "Luxembourg"},
	{from: "X3", to: "X0", country: "Russia"},
	{from: "YA", to: "YE", country: "Belgium"},
	{from: "YF", to: "YK", country: "Finland"},
	{from: "YL", to: "YR", country: "Malta"},
	{from: "YS", to: "YW", country: "Sweden"}, // YV1 Volvo, YS3 Saab
	{from: "YX", to: "Y2", country: "Norway"},
	{from: "Y3", to: "Y5", country: "Belarus"},
	{from: "Y6", to: "Y0", country: "Ukraine"},
	{from: "ZA", to: "ZR", country: "Italy"}, // ZFA Fiat, ZFF Ferrari
	{from: "ZX", to: "Z2", country: "Slovenia"},
	{from: "Z3", to: "Z5", country: "Lithuania"},

	{from: "1A", to: "10", country: "United States"}, // 1FT Ford, 1G1 Chevrolet
	{from: "2A", to: "20", country: "Canada"},        // 2T1 Toyota, 2HG Honda
	{from: "3A", to: "3W", country: "Mexico"},        // 3VW Volkswagen, 3N1 Nissan
	{from: "3X", to: "37", country: "Costa Rica"},
	{from: "4A", to: "40", country: "United States"}, // 4T1 Toyota, 4S4 Subaru
	{from: "5A", to: "50", country: "United States"}, // 5YJ Tesla, 5NP Hyundai

	{from: "6A", to: "6W", country: "Australia"}, // 6G1 Holden
	{from: "7A", to: "7E", country: "New Zealand"},
	// The rest of block 7 went to the United States when 1, 4 and 5 ran short.
	{from: "7F", to: "70", country: "United States", region: regionNorthAmerica}, // 7SA Tesla, 7FC Rivian

	{from: "8A", to: "8E", country: "Argentina"},
	{from: "8F", to: "8K", country: "Chile"},
	{from: "8L", to: "8R", country: "Ecuador"},
	{from: "8S", to: "8W", country: "Peru"},
	{from: "8X", to: "82", country: "Venezuela"},
	{from: "9A", to: "9E", country: "Brazil"}, // 9BW Volkswagen
	{from: "9F", to: "9K", country: "Colombia"},
	{from: "9L", to: "9R", country: "Paraguay"},
	{from: "9S", to: "9W", country: "Uruguay"},
	{from: "9X", to: "92", country: "Trinidad and Tobago"},
	{from: "93", to: "99", country: "Brazil"}, // 93H Honda, 94D Nissan
}

func lookupWMI(c1, c2 byte) (region, country string) {
	i := strings.IndexByte(wmiOrder, c2)
	for _, r := range countries {
		if r.from[0] != c1 {
			continue
		}
		if strings.IndexByte(wmiOrder, r.from[1]) <= i && i <= strings.IndexByte(wmiOrder, r.to[1]) {
			if r.region != "" {
				return r.region, r.country
			}
			return regionOf(c1), r.country
		}
	}
	return regionOf(c1), ""
}
