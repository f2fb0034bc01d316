package vpic

import (
	"strconv"
	"strings"

	"github.com/vds-dev/vds/internal/upstream"
	"github.com/vds-dev/vds/internal/vin"
)

// vPIC's error texts, as its API sends them.
const (
	textClean      = "0 - VIN decoded clean. Check Digit (9th position) is correct"
	textCheckDigit = "1 - Check Digit (9th position) does not calculate properly"
	textNoWMI      = "7 - Manufacturer is not registered with NHTSA for sale or importation in the U.S. for use on U.S roadways; Please contact the manufacturer directly for more information"
	textNoData     = "8 - No detailed data available currently"
)

// Decode decodes a VIN as vPIC would. A VIN that is not well formed is a
// *vin.Error; an unknown manufacturer is an answer with error code 7.
func (s *Snapshot) Decode(raw string) (upstream.VINResult, error) {
	local, err := vin.Decode(raw)
	if err != nil {
		return upstream.VINResult{}, err
	}
	v := local.VIN
	res := upstream.VINResult{}
	key := v[:3]
	if v[2] == '9' {
		key += v[11:14]
	}
	w := s.wmis[key]
	if w == nil {
		return withError(res, "7", textNoWMI), nil
	}
	res.Manufacturer = optName(s.manufacturers, w.manufacturerID)
	res.VehicleType = optName(s.vehicleTypes, w.vehicleType)
	res.Make = optName(s.makes, w.makeID)

	year, schemas := s.schemasFor(w, local.ModelYears)
	if year != 0 {
		res.ModelYear = &year
	}
	best := s.match(v, schemas)
	if len(best) == 0 {
		code, text := "8", textNoData
		if !local.CheckDigit.Valid {
			code, text = "1", textCheckDigit+"; "+textNoData
		}
		return withError(res, code, text), nil
	}
	for el, p := range best {
		s.apply(&res, el, p)
	}
	if local.CheckDigit.Valid {
		return withError(res, "0", textClean), nil
	}
	return withError(res, "1", textCheckDigit), nil
}

// schemasFor picks the first candidate year (the one position 7 points
// at comes first) that has schemas for w.
func (s *Snapshot) schemasFor(w *wmi, years []int) (int, []int) {
	for _, y := range years {
		var ids []int
		for _, ws := range w.schemas {
			if ws.from <= y && y <= ws.to {
				ids = append(ids, ws.schema)
			}
		}
		if len(ids) > 0 {
			return y, ids
		}
	}
	if len(years) > 0 {
		return years[0], nil
	}
	return 0, nil
}

// match returns, per element, the winning pattern among those whose keys
// match the VIN.
func (s *Snapshot) match(v string, schemas []int) map[int]pattern {
	var target [14]byte
	copy(target[:5], v[3:8])
	target[5] = '|'
	copy(target[6:], v[9:17])
	best := map[int]pattern{}
	for _, id := range schemas {
		for _, p := range s.schemas[id] {
			if !keysMatch(p.keys, target[:]) {
				continue
			}
			if cur, ok := best[p.element]; !ok || p.rank > cur.rank || (p.rank == cur.rank && p.id > cur.id) {
				best[p.element] = p
			}
		}
	}
	return best
}

// keysMatch reports whether keys, a prefix pattern, matches target.
func keysMatch(keys string, target []byte) bool {
	i := 0
	for k := 0; k < len(keys); k++ {
		if i >= len(target) {
			return false
		}
		switch c := keys[k]; c {
		case '*':
		case '[':
			end := strings.IndexByte(keys[k:], ']')
			if end < 0 || !inClass(keys[k+1:k+end], target[i]) {
				return false
			}
			k += end
		default:
			if c != target[i] {
				return false
			}
		}
		i++
	}
	return true
}

func inClass(class string, c byte) bool {
	for j := 0; j < len(class); j++ {
		if j+2 < len(class) && class[j+1] == '-' {
			if class[j] <= c && c <= class[j+2] {
				return true
			}
			j += 2
			continue
		}
		if class[j] == c {
			return true
		}
	}
	return false
}

// specificity ranks keys: a literal character counts 2, a class 1, "*" 0.
func specificity(keys string) int {
	n := 0
	for k := 0; k < len(keys); k++ {
		switch keys[k] {
		case '*', '|':
		case '[':
			if end := strings.IndexByte(keys[k:], ']'); end > 0 {
				k += end
			}
			n++
		default:
			n += 2
		}
	}
	return n
}

func (s *Snapshot) apply(res *upstream.VINResult, elementID int, p pattern) {
	e := s.elements[elementID]
	value := strings.TrimSpace(p.attr)
	if e.lookup != "" {
		if name, ok := s.lookups[e.lookup][value]; ok {
			value = name
		}
	}
	if value == "" {
		return
	}
	switch e.code {
	case "Model":
		res.Model = &value
		if id, err := strconv.Atoi(strings.TrimSpace(p.attr)); err == nil {
			if mk, ok := s.modelMake[id]; ok {
				res.Make = optName(s.makes, mk)
			}
		}
	case "Series":
		res.Series = &value
	case "Trim":
		res.Trim = &value
	case "BodyClass":
		res.BodyClass = &value
	case "Doors":
		res.Doors = optInt(value)
	case "EngineCylinders":
		res.Engine.Cylinders = optInt(value)
	case "DisplacementL":
		res.Engine.DisplacementL = optFloat(value)
	case "DisplacementCC":
		if res.Engine.DisplacementL == nil {
			if cc := optFloat(value); cc != nil {
				l := float64(int(*cc/100+0.5)) / 10
				res.Engine.DisplacementL = &l
			}
		}
	case "FuelTypePrimary":
		res.Engine.FuelType = &value
	case "PlantCity":
		res.Plant.City = &value
	case "PlantState":
		res.Plant.State = &value
	case "PlantCountry":
		res.Plant.Country = &value
	}
}

func withError(res upstream.VINResult, code, text string) upstream.VINResult {
	res.ErrorCodes = strings.Split(code, ",")
	res.ErrorText = &text
	return res
}

func optName(m map[int]string, id int) *string {
	if n, ok := m[id]; ok && n != "" {
		return &n
	}
	return nil
}

func optInt(s string) *int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return nil
	}
	return &n
}

func optFloat(s string) *float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil
	}
	return &f
}
