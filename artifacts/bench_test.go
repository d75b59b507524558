package artifacts

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// benchSources is about the number of source files of golang.org/x/tools.
const benchSources = 5000

// benchStore returns a store holding benchSources artifacts in 100
// directories, each with a 4 KB body, and their sources.
func benchStore(b *testing.B) (*Store, []string) {
	b.Helper()
	s, _ := newStore(b)
	body := []byte(strings.Repeat("# some markdown\n", 256))
	sources := make([]string, benchSources)
	for i := range sources {
		sources[i] = fmt.Sprintf("pkg%02d/sub/file%04d.go", i%100, i)
		m := Meta{Fingerprint: Fingerprint{SourceSHA256: SourceDigest([]byte(sources[i])), CallersDigest: CallersDigest(nil)}, Status: Enriched}
		if err := s.Write(sources[i], m, body); err != nil {
			b.Fatal(err)
		}
	}
	return s, sources
}

func BenchmarkWrite(b *testing.B) {
	s, _ := newStore(b)
	body := []byte(strings.Repeat("# some markdown\n", 256))
	m := Meta{Status: Enriched}
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Write("pkg/sub/file.go", m, body); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStatus is the check file_info makes before deciding whether to
// ask for work: one Status among benchSources artifacts.
func BenchmarkStatus(b *testing.B) {
	s, sources := benchStore(b)
	now := Fingerprint{SourceSHA256: SourceDigest([]byte(sources[0])), CallersDigest: CallersDigest(nil)}
	b.ReportAllocs()
	for b.Loop() {
		if st, err := s.Status(sources[0], now); st != Enriched || err != nil {
			b.Fatal(st, err)
		}
	}
}

// BenchmarkList lists benchSources artifacts, as the fileinfo://artifacts
// resource does.
func BenchmarkList(b *testing.B) {
	s, _ := benchStore(b)
	b.ReportAllocs()
	for b.Loop() {
		entries, err := s.List(context.Background())
		if err != nil || len(entries) != benchSources {
			b.Fatal(len(entries), err)
		}
	}
}
