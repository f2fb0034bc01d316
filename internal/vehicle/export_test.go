package vehicle

// UsesBits reports whether a car search is answered by ANDing its q
// words' bitmaps (bitsSource), so that a test can show that path is run.
func (s *Service) UsesBits(in Query) bool {
	snap := s.Snapshot()
	q, err := carRules.validate(&in, snap.vocab(in.Kind))
	if err != nil {
		return false
	}
	src, _, ok := snap.cars.idx.plan(&q, nil)
	return ok && src.kind == srcBits
}
