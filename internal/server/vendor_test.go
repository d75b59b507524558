package server

import (
	"strings"
	"testing"
)

// vendoring is a Go module that vendors a rate limiter, holds a copy of
// one of the vendored files, and vendors C code with its licence.
var vendoring = map[string]string{
	"go.mod":             "module example.com/shop\n\ngo 1.22\n",
	"main.go":            "package main\n\n// main serves the shop.\nfunc main() {}\n",
	"vendor/modules.txt": "# github.com/acme/ratelimit v1.0.0\n## explicit\ngithub.com/acme/ratelimit\n",
	"vendor/github.com/acme/ratelimit/refill.go": "package ratelimit\n\n// Refill adds the tokens earned by the time passed to the token bucket.\nfunc Refill(b *Bucket) { b.tokens += rate }\n",
	"vendor/github.com/acme/ratelimit/bucket.go": bucketGo,
	"internal/limit/bucket.go":                   bucketGo,
	"third_party/zlib/LICENSE":                   "zlib licence\n",
	"third_party/zlib/inflate.c":                 "/* inflate decompresses a deflate stream. */\nint inflate(void *strm, int flush) { return 0; }\n",
}

// bucketGo is over the 256 bytes that make a copy.
const bucketGo = `package ratelimit

// Allow takes a token from the token bucket of key: a token bucket
// refills at a fixed rate, and a request is allowed while it holds one.
func Allow(key string) bool {
	b := buckets[key]
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
`

// TestVendorScope checks that serve indexes vendored code in the vendor
// scope, which search_docs searches on its own and index_status
// accounts for, with the copy left out and the reason why.
func TestVendorScope(t *testing.T) {
	s := connect(t, vendoring, Options{NoWatch: true})
	var st indexStatusOut
	var status string
	waitFor(t, "the vendor scope", func() bool {
		status = text(s.ok("index_status", map[string]any{}, &st))
		return st.Vendor != nil && st.Vendor.State == "complete"
	})
	if st.Vendor.Files != 2 || len(st.Vendor.Roots) != 2 || st.Vendor.Roots[0].Dir != "third_party" || st.Vendor.Roots[1].Why != "Go's vendor/modules.txt" {
		t.Errorf("vendor status %+v", *st.Vendor)
	}
	if st.CodeLeft != 1 || st.CodeLeftPaths[0].Path != "vendor/github.com/acme/ratelimit/bucket.go" ||
		!strings.Contains(st.CodeLeftPaths[0].Reason, "exact copy of internal/limit/bucket.go") {
		t.Errorf("code left out: %d %+v", st.CodeLeft, st.CodeLeftPaths)
	}
	if !strings.Contains(status, "Vendored code (scope vendor") || !strings.Contains(status, "third_party (1, a licence (LICENSE))") {
		t.Errorf("index_status text:\n%s", status)
	}

	var out searchDocsOut
	res := text(s.ok("search_docs", map[string]any{"query": "refill token bucket", "scopes": []string{"vendor"}, "min_score": 0}, &out))
	hits := out.ResultsByScope["vendor"]
	if len(hits) == 0 || !strings.HasSuffix(hits[0].Symbol, "ratelimit.Refill") || hits[0].Path != "vendor/github.com/acme/ratelimit/refill.go" {
		t.Fatalf("vendor search: %+v", out.Results)
	}
	if !strings.Contains(res, "(vendor, score") {
		t.Errorf("search_docs text:\n%s", res)
	}
	// The code scope holds the project's code only; the copy is there once.
	s.ok("search_docs", map[string]any{"query": "token bucket allow", "scopes": []string{"code"}, "min_score": 0}, &out)
	for _, r := range out.Results {
		if strings.HasPrefix(r.Path, "vendor/") || strings.HasPrefix(r.Path, "third_party/") {
			t.Errorf("code search found %s", r.Path)
		}
	}
	s.ok("search_docs", map[string]any{"query": "inflate deflate stream", "min_score": 0}, &out)
	if len(out.Results) == 0 || out.Results[0].Scope != "vendor" || out.Results[0].Path != "third_party/zlib/inflate.c" {
		t.Errorf("search of every scope: %+v", out.Results)
	}
}
