package enrich

import (
	"errors"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/fixture"
)

func TestSummaryText(t *testing.T) {
	src := fixture.MinifiedJS(20 << 10)
	sum := extract.Summarize("dist/bundle.js", src, "minified: 20000 bytes in 1 line")
	got := SummaryText(sum, nil)
	for _, want := range []string{
		"# dist/bundle.js (summarised)",
		"not documented symbol by symbol: minified: 20000 bytes in 1 line.",
		"it is not extracted",
		"- Language: javascript.",
		"bytes in 1 line, the longest",
		"- Opening comment: bundle v1.0.0 | MIT",
		"- Exports, read from the global its UMD wrapper sets: `Bundle`.",
		"`report_file_info` takes no report",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the summary does not say %q:\n%s", want, got)
		}
	}

	f, _, _ := minified(t, 20<<10)
	f.Exports = []extract.Export{{Name: "default", Local: "Bundle"}}
	got = SummaryText(extract.Summarize(f.Path, src, "crowded"), f)
	for _, want := range []string{"its extraction tell", "- Exports: `default` (`Bundle`).", "- Symbols: ", "`Ba`, `Ca`", "A larger `max_tokens`"} {
		if !strings.Contains(got, want) {
			t.Errorf("the summary with an extraction does not say %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "report_file_info") {
		t.Errorf("an extracted file's summary says nothing may be reported:\n%s", got)
	}
}

// TestCrowdedError checks that a line whose symbols alone overflow the
// budget is a CrowdedError naming it, with the message it always had.
func TestCrowdedError(t *testing.T) {
	f, src, g := minified(t, 40<<10)
	_, err := NewBuilder().Prompt(f, g, src, Options{MaxTokens: 3000})
	var ce *CrowdedError
	if !errors.As(err, &ce) || ce.StartLine != 1 || ce.EndLine != 1 || ce.Symbols == 0 || ce.MaxTokens != 3000 {
		t.Fatalf("Prompt: %v (%+v)", err, ce)
	}
	if want := "max_tokens 3000 is too small for dist/bundle.js: the entries of line 1 alone take"; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("%q, want it to start %q", err, want)
	}
}
