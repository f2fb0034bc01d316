package lookup

import (
	"context"
	"regexp"
	"strings"
	"time"

	"github.com/vds-dev/vds/internal/upstream"
	"github.com/vds-dev/vds/internal/vehicle"
)

// RecallIndex answers recalls offline, from imported NHTSA recall files.
type RecallIndex interface {
	// Find lists the campaigns of a make, model and year (never nil), the
	// same as the API encodes them, kept encoded, and whether the files name
	// the make, model and year.
	Find(vehicleMake, model string, year int) (recalls []upstream.Recall, encoded []byte, ok bool)
	Source() string
	DataDate() string
	// Since is when the files were imported: the answer's fetched_at.
	Since() time.Time
}

// SourceRecallsAPI names NHTSA's live recalls API in answers.
const SourceRecallsAPI = "NHTSA recalls API"

// loadedRecalls is a loaded index and its generation, new with each load.
type loadedRecalls struct {
	ix  RecallIndex
	gen uint64
}

// SetRecallIndex makes ix the offline recall source; replicas swap in newer files.
func (s *Service) SetRecallIndex(ix RecallIndex) {
	s.recallIx.Store(&loadedRecalls{ix: ix, gen: s.recallGen.Add(1)})
}

// RecallSource names where recalls come from now: the files, the API or "none".
func (s *Service) RecallSource() string {
	if p := s.recallIx.Load(); p != nil && s.recallMode != "online" {
		return p.ix.Source()
	}
	if s.recallMode == "offline" {
		return "none"
	}
	return SourceRecallsAPI
}

// RecallSet is the recalls of one vehicle, with where they come from.
type RecallSet struct {
	Recalls []upstream.Recall
	// JSON is Recalls encoded, from the files; nil from NHTSA.
	JSON     []byte
	Source   string
	DataDate string
	Meta     upstream.Meta
	Offline  bool
	// Version is the generation of the files answering, which an answer's
	// bytes are a function of (with the vehicle); 0 from NHTSA.
	Version uint64
}

// Recalls is the one place recalls are fetched (the API, the garage's
// watch): from the imported files when recalls.source allows and they are
// loaded, else NHTSA. models are the model's names to try offline in turn
// (as the catalog spells it, as its source does); NHTSA gets the first.
func (s *Service) Recalls(ctx context.Context, vehicleMake string, year int, models ...string) (RecallSet, error) {
	if files, offline := s.offlineRecalls(); offline {
		if files == nil {
			return RecallSet{}, &vehicle.Error{Code: CodeUpstreamUnavailable,
				Message: "No NHTSA recall files are imported on this server (recalls.source is offline); an operator runs vds ingest --source nhtsa-recalls."}
		}
		ix := files.ix
		out := RecallSet{Recalls: []upstream.Recall{}, JSON: []byte("[]"), Source: ix.Source(), DataDate: ix.DataDate(), Meta: upstream.Meta{FetchedAt: ix.Since()}, Offline: true, Version: files.gen}
		for _, m := range s.modelNames(models) {
			if l, enc, ok := ix.Find(vehicleMake, m, year); ok {
				out.Recalls, out.JSON = l, enc
				break
			}
		}
		return out, nil
	}
	recalls, meta, err := s.up.Recalls(ctx, vehicleMake, apiModel(models), year)
	if err != nil {
		return RecallSet{}, err
	}
	return RecallSet{Recalls: recalls, Source: SourceRecallsAPI, DataDate: apiDataDate(meta), Meta: meta}, nil
}

// apiModel is the model name NHTSA's API is asked with: the first of the
// names a record's model may go by.
func apiModel(models []string) string {
	if len(models) == 0 {
		return ""
	}
	return models[0]
}

// apiDataDate is an answer from NHTSA's API dated by when it was fetched.
func apiDataDate(meta upstream.Meta) string {
	return meta.FetchedAt.UTC().Format(time.DateOnly)
}

// offlineRecalls reports whether recalls come from the files now, and the
// files' index (nil when recalls.source is offline and none are loaded).
func (s *Service) offlineRecalls() (*loadedRecalls, bool) {
	p := s.recallIx.Load()
	return p, s.recallMode == "offline" || (s.recallMode != "online" && p != nil)
}

// WatchRecalls is the garage watch's recall source (a watch.Fetcher):
// Recalls by recalls.source, so the watch answers from the imported files
// when they do; a refresh asks NHTSA past its cache otherwise.
func (s *Service) WatchRecalls() WatchRecalls { return WatchRecalls{s} }

// WatchRecalls fetches a make, model and year's recalls for the watch.
type WatchRecalls struct{ s *Service }

// Recalls answers from the files, or from NHTSA through its cache.
func (w WatchRecalls) Recalls(ctx context.Context, vehicleMake, model string, year int) ([]upstream.Recall, upstream.Meta, error) {
	set, err := w.s.Recalls(ctx, vehicleMake, year, model)
	return set.Recalls, set.Meta, err
}

// RefreshRecalls answers from the files, or asks NHTSA now.
func (w WatchRecalls) RefreshRecalls(ctx context.Context, vehicleMake, model string, year int) ([]upstream.Recall, error) {
	if _, offline := w.s.offlineRecalls(); offline {
		recalls, _, err := w.Recalls(ctx, vehicleMake, model, year)
		return recalls, err
	}
	return w.s.up.RefreshRecalls(ctx, vehicleMake, model, year)
}

var (
	parenthesized = regexp.MustCompile(`\s*\([^)]*\)`)
	// EPA's drive and body suffixes, which NHTSA's model names lack ("Wrangler 4WD").
	driveSuffix = regexp.MustCompile(`(?i)(\s+(2wd|4wd|awd|fwd|rwd|4x4|2dr|4dr|pickup|cab chassis|van|wagon|convertible|coupe|hybrid|ffv))+$`)
)

// maxModelNames bounds the models whose names are kept: about the
// catalog's distinct models, a few strings each.
const maxModelNames = 16384

// modelNames is nhtsaModels, worked out once per catalog model rather than
// (with its regular expressions) on every offline answer.
func (s *Service) modelNames(models []string) []string {
	key := strings.Join(models, "\x00")
	if v, ok := s.names.Load(key); ok {
		return v.([]string)
	}
	out := nhtsaModels(models)
	if s.nNames.Add(1) <= maxModelNames {
		s.names.Store(key, out)
	}
	return out
}

// nhtsaModels are the names NHTSA may file a catalog model under: each as
// given, without parentheses, without EPA's drive and body suffixes, and
// last the model's first word, its family ("Wrangler 4dr 4xe" is a Wrangler).
func nhtsaModels(models []string) []string {
	var out []string
	add := func(m string) {
		if m = strings.TrimSpace(m); m != "" && !contains(out, m) {
			out = append(out, m)
		}
	}
	for _, m := range models {
		add(m)
	}
	for _, m := range models {
		m = parenthesized.ReplaceAllString(m, "")
		add(m)
		add(driveSuffix.ReplaceAllString(m, ""))
	}
	for _, m := range models {
		if first, _, ok := strings.Cut(strings.TrimSpace(m), " "); ok {
			add(first)
		}
	}
	return out
}

func contains(l []string, s string) bool {
	for _, v := range l {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}
