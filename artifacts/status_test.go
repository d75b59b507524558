package artifacts

import "testing"

func TestStatusFor(t *testing.T) {
	fp := Fingerprint{SourceSHA256: "s", CallersDigest: "c"}
	for _, tc := range []struct {
		m    Meta
		now  Fingerprint
		want Status
	}{
		{Meta{}, fp, Missing},
		{Meta{Fingerprint: fp, Status: Basic}, fp, Basic},
		{Meta{Fingerprint: fp, Status: Enriched}, fp, Enriched},
		{Meta{Fingerprint: fp, Status: Enriched}, Fingerprint{SourceSHA256: "s2", CallersDigest: "c"}, Stale},
		{Meta{Fingerprint: fp, Status: Basic}, Fingerprint{SourceSHA256: "s", CallersDigest: "c2"}, Stale},
	} {
		if got := tc.m.StatusFor(tc.now); got != tc.want {
			t.Errorf("%+v.StatusFor(%+v) = %q, want %q", tc.m, tc.now, got, tc.want)
		}
	}
}

func TestDigests(t *testing.T) {
	if got, want := SourceDigest(nil), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"; got != want {
		t.Errorf("SourceDigest(nil) = %s, want %s", got, want)
	}
	ab := CallersDigest([]string{"a.F (a.go:1)", "b.G (b.go:2)"})
	for _, tc := range []struct {
		callers []string
		same    bool
	}{
		{[]string{"b.G (b.go:2)", "a.F (a.go:1)"}, true},
		{[]string{"b.G (b.go:2)", "a.F (a.go:1)", "a.F (a.go:1)"}, true},
		{[]string{"a.F (a.go:1)"}, false},
		{[]string{"a.F (a.go:1)", "b.G (b.go:3)"}, false},
		{[]string{"a.F (a.go:1)b.G (b.go:2)"}, false},
		{nil, false},
	} {
		if got := CallersDigest(tc.callers); (got == ab) != tc.same {
			t.Errorf("CallersDigest(%q) == digest of {a.F, b.G}: %v, want %v", tc.callers, got == ab, tc.same)
		}
	}
	if CallersDigest([]string{"a\nb"}) == CallersDigest([]string{"a", "b"}) {
		t.Error("CallersDigest does not keep caller boundaries")
	}
	in := []string{"b", "a"}
	CallersDigest(in)
	if in[0] != "b" {
		t.Error("CallersDigest reordered its argument")
	}
}
