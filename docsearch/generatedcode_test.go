package docsearch

import (
	"os"
	"testing"
)

// generatedLimiterCode is limiterCode with the library's file in the
// project's own tree, under no name auxiliaryCode knows, and written by a
// tool when marked. By its words alone it ranks first.
func generatedLimiterCode(marked bool) []CodeFile {
	files := limiterCode()
	files[0].Path, files[0].Vendor, files[0].Generated = "internal/ratelimit/bucket.go", false, marked
	return files
}

// TestGeneratedCodeRanksUnder checks that the symbols of a file a tool
// wrote rank under hand-written code that matches as well, in the index
// built and in the one saved, and rank as any other once the file is put
// again unmarked.
func TestGeneratedCodeRanksUnder(t *testing.T) {
	plain := openTest(t, mapFS(nil), Options{})
	putCode(t, plain, generatedLimiterCode(false))
	expectPathFirst(t, plain, "token bucket allow", nil, "internal/ratelimit/bucket.go")

	root, dir := t.TempDir(), t.TempDir()
	ix := openTest(t, os.DirFS(root), Options{Dir: dir})
	putCode(t, ix, generatedLimiterCode(true))
	expectPathFirst(t, ix, "token bucket allow", nil, "internal/throttle/throttle.go")
	again := openTest(t, os.DirFS(root), Options{Dir: dir})
	expectPathFirst(t, again, "token bucket allow", nil, "internal/throttle/throttle.go")
	res, err := again.Search(ctx, Query{Text: "token bucket allow", MinScore: zero()})
	if err != nil || len(res.Results) != 2 || res.Results[0].Generated || !res.Results[1].Generated {
		t.Errorf("results (%v): %+v", err, res.Results)
	}

	putCode(t, again, generatedLimiterCode(false)[:1]) // the same symbols, now hand-written
	expectPathFirst(t, again, "token bucket allow", nil, "internal/ratelimit/bucket.go")
}
