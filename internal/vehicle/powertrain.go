package vehicle

import (
	"cmp"
	"slices"
	"strings"

	"github.com/vds-dev/vds/internal/catalog"
)

// powertrain is what drives a car (combustion includes hybrids and range
// extenders); a car's tire fitments follow it.
type powertrain uint8

const (
	anyPowertrain powertrain = iota
	combustion
	batteryElectric
	fuelCell
)

func powertrainOf(fuel string) powertrain {
	switch fuel {
	case catalog.FuelBEV:
		return batteryElectric
	case catalog.FuelFCEV:
		return fuelCell
	}
	return combustion
}

// trimWords are the words of a trim that name its powertrain.
var trimWords = map[string]powertrain{
	"electric": batteryElectric, "electrified": batteryElectric, "ev": batteryElectric, "bev": batteryElectric,
	"fcv": fuelCell, "fcev": fuelCell, "cell": fuelCell, "hydrogen": fuelCell,
	"rex": combustion, "extender": combustion, "hybrid": combustion, "phev": combustion, "hev": combustion,
	"plug": combustion, "diesel": combustion,
}

func trimWordsOf(trim string) []string {
	return strings.FieldsFunc(strings.ToLower(trim), func(r rune) bool { return !isWordRune(r) })
}

// trimPowertrain is the powertrain trim words name, if they agree on one.
func trimPowertrain(words []string) powertrain {
	pt := anyPowertrain
	for _, w := range words {
		if p, ok := trimWords[w]; ok {
			if pt != anyPowertrain && pt != p {
				return anyPowertrain
			}
			pt = p
		}
	}
	return pt
}

type powertrains uint8

func (m powertrains) only() powertrain {
	for p := combustion; p <= fuelCell; p++ {
		if m == 1<<p {
			return p
		}
	}
	return anyPowertrain
}

// linkPowertrains gives each fitment its powertrain (docs/data.md, Tire
// fitments of a car).
func (s *Snapshot) linkPowertrains() {
	s.fitPowertrain = make([]powertrain, len(s.tires.recs))
	// A million cars hold a few hundred thousand trims.
	wordsOf := map[string][]string{}
	for key, ps := range s.families.byKey {
		cars := s.carFamilies.byKey[key]
		carWords := make([][]string, len(cars))
		var all powertrains
		for j, i := range cars {
			trim := s.cars.recs[i].Trim
			w, ok := wordsOf[trim]
			if !ok {
				w = trimWordsOf(trim)
				wordsOf[trim] = w
			}
			carWords[j] = w
			all |= 1 << powertrainOf(s.cars.recs[i].FuelType)
		}
		for _, p := range ps {
			f := &s.tires.recs[p]
			words := trimWordsOf(f.Trim)
			var sameYear, anyYear powertrains
			for j, i := range cars {
				if c := &s.cars.recs[i]; containsAll(carWords[j], words) {
					anyYear |= 1 << powertrainOf(c.FuelType)
					if c.Year == f.Year {
						sameYear |= 1 << powertrainOf(c.FuelType)
					}
				}
			}
			s.fitPowertrain[p] = cmp.Or(sameYear.only(), trimPowertrain(words), anyYear.only(), all.only(), combustion)
		}
	}
}

func containsAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}
