package extract

import (
	"sort"
	"sync"
	"time"
)

// LanguageStats is what an Extractor did for one language.
type LanguageStats struct {
	Language string
	Files    int
	Bytes    int64
	// Busy is the summed time spent parsing and extracting, across workers.
	Busy time.Duration
}

type stats struct {
	mu sync.Mutex
	by map[string]*LanguageStats
}

func (s *stats) add(lang string, n int, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.by == nil {
		s.by = map[string]*LanguageStats{}
	}
	ls := s.by[lang]
	if ls == nil {
		ls = &LanguageStats{Language: lang}
		s.by[lang] = ls
	}
	ls.Files++
	ls.Bytes += int64(n)
	ls.Busy += d
}

// Stats returns per-language counts of the files extracted so far, sorted
// by language.
func (e *Extractor) Stats() []LanguageStats {
	e.stats.mu.Lock()
	defer e.stats.mu.Unlock()
	out := make([]LanguageStats, 0, len(e.stats.by))
	for _, ls := range e.stats.by {
		out = append(out, *ls)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Language < out[j].Language })
	return out
}
