package lookup

import "slices"

// HINMICs lists the MICs hinMakes maps, sorted.
func HINMICs() []string {
	out := make([]string, 0, len(hinMakes))
	for mic := range hinMakes {
		out = append(out, mic)
	}
	slices.Sort(out)
	return out
}
