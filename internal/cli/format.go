package cli

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/client"
)

// This file holds what the client commands share: TYPE parsing and
// completion, and the formatting of nullable values.

// typeNames are the TYPE values offered by completion and in messages.
var typeNames = []string{"car", "motorcycle", "boat", "tire"}

// typeHelp names the TYPE values in messages and help: tire is the
// spelling shown, the API's tire_size and tire-size are accepted.
var typeHelp = "use " + strings.Join(typeNames, ", ") + " (plurals, tire-size and tire_size work too)"

func parseType(s string) (client.Kind, error) {
	k, err := client.ParseKind(s)
	if err != nil {
		return "", usageErrorf(fmt.Errorf("unknown TYPE %q: %s", s, typeHelp))
	}
	return k, nil
}

// kindNoun is a kind in prose: "cars", "tire fitments".
func kindNoun(k client.Kind) string {
	if k == client.KindTireSize {
		return "tire fitments"
	}
	return string(k) + "s"
}

// completeType completes the TYPE argument (the first one) and nothing
// after it: the other arguments are uuids and VINs, never file names.
func completeType(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
	if len(args) == 0 {
		return typeNames, cobra.ShellCompDirectiveNoFileComp
	}
	return nil, cobra.ShellCompDirectiveNoFileComp
}

// completeMake completes --make from the server's makes (one API call, only
// when completions are asked for; a failure completes nothing).
func completeMake(f *Factory, fixed client.Kind) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		kind := fixed
		if kind == "" && len(args) > 0 {
			k, err := client.ParseKind(args[0])
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			kind = k
		}
		if kind == "" {
			kind = client.KindCar
		}
		c, err := f.Client()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		makes, err := c.Makes(cmd.Context(), kind)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		names := make([]string, 0, len(makes))
		for _, m := range makes {
			names = append(names, m.Name)
		}
		return names, cobra.ShellCompDirectiveNoFileComp
	}
}

func fixedValues(values ...string) cobra.CompletionFunc {
	return cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp)
}

func dashIfEmpty(s string) string { return dash(strings.TrimSpace(s)) }

func optString(p *string) string {
	if p == nil {
		return "-"
	}
	return dashIfEmpty(*p)
}

// rearSize is a staggered fitment's rear size with its rating, or "-".
func rearSize(t *client.TireFitment) string {
	if t.RearTireSize == nil {
		return "-"
	}
	return client.RatedSize(*t.RearTireSize, t.RearLoadIndex, t.RearSpeedRating)
}

func optInt(p *int) string {
	if p == nil {
		return "-"
	}
	return strconv.Itoa(*p)
}

// optFloat formats a nullable number with at most prec decimals and no
// trailing zeros ("2.5", not "2.500").
func optFloat(p *float64, prec int) string {
	if p == nil {
		return "-"
	}
	return formatFloat(*p, prec)
}

func formatFloat(v float64, prec int) string {
	s := strconv.FormatFloat(v, 'f', prec, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// signed formats a difference with its sign, so "+0.3" reads as bigger.
func signed(v float64, prec int) string {
	s := strconv.FormatFloat(v, 'f', prec, 64)
	if v >= 0 && !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}

// yesNo marks a flag in a table: "yes", or "-" to keep columns readable.
func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "-"
}

// vehicleName is "2022 Toyota Camry LE" without empty parts.
func vehicleName(year int, parts ...string) string {
	words := []string{}
	if year > 0 {
		words = append(words, strconv.Itoa(year))
	}
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			words = append(words, p)
		}
	}
	return strings.Join(words, " ")
}

// truncate shortens long prose for a terminal table; piped output and
// --json keep the whole text.
func truncate(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// plural is n and the noun that goes with it: "1 call", "2 calls".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
