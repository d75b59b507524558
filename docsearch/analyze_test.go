package docsearch

import (
	"strings"
	"testing"
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
	f.Fuzz(func(t *testing.T, s string) {
		a := newAnalyzer()
		a.analyze(s, func(term string, whole bool) {
			if term == "" || len(term) > maxTermLen*4 {
				t.Fatalf("term %q from %q", term, s)
			}
		})
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
