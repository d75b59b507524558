package docsearch

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/fileinfo/fileinfo/internal/fixture"
)

func terms(text string) string {
	a := newAnalyzer()
	var out []string
	a.analyze(text, func(t string, whole bool) {
		if whole {
			t = "=" + t
		}
		out = append(out, t)
	})
	return strings.Join(out, " ")
}

func TestAnalyze(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Running the searches", "run search"},
		{"mapBy", "=mapby map"},
		{"HTTPServer getHTTPResponseCode", "=httpserver http server =gethttpresponsecode get http respons code"},
		{"snake_case_name", "=snakecasename snake case name"},
		{"os.path.join(a, b)", "=os.path.join os path join"},
		{"std::vector tree-sitter", "=std::vector std vector =tree-sitter tree sitter"},
		{"int2str utf8 python3", "=int2str int str =utf8 utf =python3 python"},
		{"end of sentence. Next one", "end sentenc next one"},
		{"Ünïcödé wörter 日本語", "ünïcödé wörter 日本語"},
		{"--flag -x ...", "flag"},
		{"C++ and c#, F# or c", "cpp csharp fsharp"},
		{strings.Repeat("a", 70), ""},
	} {
		if got := terms(tc.in); got != tc.want {
			t.Errorf("terms(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzAnalyze(f *testing.F) {
	f.Add("mapBy os.path.join HTTPServer")
	f.Add("a::b--c..d __x__ 1.2.3")
	f.Add("add a where clause to `Select.where()`")
	f.Fuzz(func(t *testing.T, s string) {
		for _, a := range []*analyzer{newAnalyzer(), namesAnalyzer(), {words: map[string][]wordTerm{}, stems: map[string]string{}, keep: queryStops(s)}} {
			a.analyze(s, func(term string, whole bool) {
				if term == "" || len(term) > maxTermLen*4 {
					t.Fatalf("term %q from %q", term, s)
				}
			})
		}
	})
}

func BenchmarkAnalyze(b *testing.B) {
	text := strings.Repeat("The analyzer splits camelCase identifiers like getHTTPResponse and snake_case_names, then stems the running words. ", 50)
	a := newAnalyzer()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		a.analyze(text, func(string, bool) {})
	}
}

// TestAnalyzeTermsOwned checks that the terms analyze emits are the
// analyzer's own strings: kept without a copy, they stay the same when
// the text's bytes change after, and when more text is analysed (the
// scratch buffers are reused); the same term is the same string.
func TestAnalyzeTermsOwned(t *testing.T) {
	a := newAnalyzer()
	buf := []byte("HTTPServer getRunningServers Ünïcödé wörter")
	var kept []string
	a.analyze(unsafeString(buf), func(t string, _ bool) { kept = append(kept, t) })
	want := strings.Join(kept, " ")
	for i := range buf {
		buf[i] = 'z'
	}
	a.analyze("ParseRunningJobs other_words parse_jobs", func(string, bool) {})
	if got := strings.Join(kept, " "); got != want {
		t.Errorf("kept terms %q became %q", want, got)
	}
	var servers []string
	a.analyze("servers getRunningServers", func(t string, whole bool) {
		if t == "server" {
			servers = append(servers, t)
		}
	})
	if len(servers) != 2 || unsafe.StringData(servers[0]) != unsafe.StringData(servers[1]) {
		t.Errorf("the stem of servers twice: %d strings, not one", len(servers))
	}
}

// BenchmarkAnalyzeCold analyses 4,000 distinct identifiers with a new
// analyzer each time: every compound a miss of its cache, as most of a
// big tree's are the first time they are seen.
func BenchmarkAnalyzeCold(b *testing.B) {
	var sb strings.Builder
	for i := range 4000 {
		fmt.Fprintf(&sb, "ledger%sCount_%s parseJobs%s ", zipfWord(uint64(i)), zipfWord(uint64(i*7)), zipfWord(uint64(i*13)))
	}
	text := sb.String()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		a := newAnalyzer()
		a.analyze(text, func(string, bool) {})
	}
}

// BenchmarkAnalyzeSource analyses this module's Go sources (or the C
// and Go sources under FILEINFO_ANALYZE_BENCH_DIR) with one analyzer, as
// an index's worker does symbol after symbol: compounds repeat, so most
// are hits of its caches.
func BenchmarkAnalyzeSource(b *testing.B) {
	texts, size := fixture.Sources(b, "FILEINFO_ANALYZE_BENCH_DIR", "..")
	a := newAnalyzer()
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, text := range texts {
			a.analyze(text, func(string, bool) {})
		}
	}
}
