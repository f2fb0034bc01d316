package tire

import "strings"

// loadKg is the load capacity in kg of each load index from minLoadIndex,
// as ISO 4000-1 and the ETRTO Standards Manual publish it (docs/data.md).
var loadKg = [...]int{
	250, 257, 265, 272, 280, 290, 300, 307, 315, 325, // 60-69
	335, 345, 355, 365, 375, 387, 400, 412, 425, 437, // 70-79
	450, 462, 475, 487, 500, 515, 530, 545, 560, 580, // 80-89
	600, 615, 630, 650, 670, 690, 710, 730, 750, 775, // 90-99
	800, 825, 850, 875, 900, 925, 950, 975, 1000, 1030, // 100-109
	1060, 1090, 1120, 1150, 1180, 1215, 1250, 1285, 1320, 1360, // 110-119
	1400, 1450, 1500, 1550, 1600, 1650, 1700, 1750, 1800, 1850, // 120-129
	1900, 1950, 2000, 2060, 2120, 2180, 2240, 2300, 2360, 2430, // 130-139
	2500, 2575, 2650, 2725, 2800, 2900, 3000, 3075, 3150, 3250, // 140-149
	3350, // 150
}

// LoadKg returns the load a tire of load index li carries, in kg; false
// outside 60..150.
func LoadKg(li int) (int, bool) {
	if !ValidLoadIndex(li) {
		return 0, false
	}
	return loadKg[li-minLoadIndex], true
}

// MinLoadIndex returns the lowest load index that carries at least kg;
// false when even 150 does not.
func MinLoadIndex(kg int) (int, bool) {
	for i, c := range loadKg {
		if c >= kg {
			return minLoadIndex + i, true
		}
	}
	return 0, false
}

// speedKmh and speedMph are the top speeds of each rating of speedRatings,
// in order (ISO 4000-1, ETRTO); Z is "above 240 km/h" and given as 240.
var (
	speedKmh = [len(speedRatings)]int{120, 130, 140, 150, 160, 170, 180, 190, 200, 210, 240, 270, 300, 240}
	speedMph = [len(speedRatings)]int{75, 81, 87, 93, 99, 106, 112, 118, 124, 130, 149, 168, 186, 149}
)

// SpeedLimit returns the top speed of rating r in km/h and mph; false for
// a letter that is not a rating.
func SpeedLimit(r string) (kmh, mph int, ok bool) {
	if !ValidSpeedRating(r) {
		return 0, 0, false
	}
	i := strings.IndexByte(speedRatings, r[0])
	return speedKmh[i], speedMph[i], true
}
