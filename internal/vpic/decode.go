package vpic

import (
	"slices"
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
	res.Manufacturer = s.opt(w.manufacturer)
	res.VehicleType = s.opt(w.vehicleType)
	res.Make = s.opt(w.make)

	year, schemas := s.schemasFor(w, local.ModelYears)
	if year != 0 {
		res.ModelYear = &year
	}
	best := s.match(v, schemas)
	if !slices.ContainsFunc(best[:], func(p pattern) bool { return p.element != 0 }) {
		code, text := "8", textNoData
		if !local.CheckDigit.Valid {
			code, text = "1", textCheckDigit+"; "+textNoData
		}
		return withError(res, code, text), nil
	}
	for _, p := range best {
		if p.element != 0 {
			s.apply(&res, p)
		}
	}
	if local.CheckDigit.Valid {
		return withError(res, "0", textClean), nil
	}
	return withError(res, "1", textCheckDigit), nil
}

// schemasFor picks the first candidate year (the one position 7 points
// at comes first) that has schemas for w.
func (s *Snapshot) schemasFor(w *wmi, years []int) (int, []int32) {
	for _, y := range years {
		var ids []int32
		for _, ws := range w.schemas {
			if int(ws.from) <= y && y <= int(ws.to) {
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
func (s *Snapshot) match(v string, schemas []int32) (best [elPlantCountry + 1]pattern) {
	var target [14]byte
	copy(target[:5], v[3:8])
	target[5] = '|'
	copy(target[6:], v[9:17])
	for _, id := range schemas {
		for _, p := range s.schemas[id] {
			if !keysMatch(s.strs[p.keys], target[:]) {
				continue
			}
			if cur := best[p.element]; cur.element == 0 || p.rank > cur.rank || (p.rank == cur.rank && p.id > cur.id) {
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

func (s *Snapshot) apply(res *upstream.VINResult, p pattern) {
	value := s.strs[p.value]
	if value == "" {
		return
	}
	switch p.element {
	case elModel:
		res.Model = &value
		if p.make != 0 {
			res.Make = s.opt(p.make)
		}
	case elSeries:
		res.Series = &value
	case elTrim:
		res.Trim = &value
	case elBodyClass:
		res.BodyClass = &value
	case elDoors:
		res.Doors = optInt(value)
	case elCylinders:
		res.Engine.Cylinders = optInt(value)
	case elDisplacementL:
		res.Engine.DisplacementL = optFloat(value)
	case elDisplacementCC:
		if res.Engine.DisplacementL == nil {
			if cc := optFloat(value); cc != nil {
				l := float64(int(*cc/100+0.5)) / 10
				res.Engine.DisplacementL = &l
			}
		}
	case elFuelType:
		res.Engine.FuelType = &value
	case elPlantCity:
		res.Plant.City = &value
	case elPlantState:
		res.Plant.State = &value
	case elPlantCountry:
		res.Plant.Country = &value
	}
}

func withError(res upstream.VINResult, code, text string) upstream.VINResult {
	res.ErrorCodes = strings.Split(code, ",")
	res.ErrorText = &text
	return res
}

func (s *Snapshot) opt(i uint32) *string {
	if i == 0 {
		return nil
	}
	v := s.strs[i]
	return &v
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
