package artifacts

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestStatusTransitions(t *testing.T) {
	s, root := newStore(t)
	src := []byte("package a\n")
	callers := []string{"b.G (b/b.go:3)", "c.H (c/c.go:9)"}
	now := Fingerprint{SourceSHA256: SourceDigest(src), CallersDigest: CallersDigest(callers)}
	expect := func(step string, want Status) {
		t.Helper()
		if got, err := s.Status("a/a.go", now); got != want || err != nil {
			t.Errorf("%s: Status = %q, %v; want %q", step, got, err, want)
		}
	}
	write := func(st Status) {
		t.Helper()
		if err := s.Write("a/a.go", Meta{Fingerprint: now, ToolVersion: "test", Status: st}, []byte("# a/a.go\n")); err != nil {
			t.Fatal(err)
		}
	}

	expect("no artifact", Missing)
	write(Basic)
	expect("first file_info", Basic)
	write(Partial)
	expect("report_file_info of some symbols", Partial)
	write(Enriched)
	expect("report_file_info", Enriched)

	src = append(src, "func F() {}\n"...)
	now.SourceSHA256 = SourceDigest(src)
	expect("source changed", Stale)
	write(Basic)
	expect("re-extracted", Basic)
	write(Enriched)
	expect("re-enriched", Enriched)

	callers = append(callers, "d.K (d.go:1)")
	now.CallersDigest = CallersDigest(callers)
	expect("callers changed", Stale)
	write(Enriched)
	expect("re-enriched", Enriched)

	if err := s.Remove("a/a.go"); err != nil {
		t.Fatal(err)
	}
	expect("source deleted", Missing)

	// A damaged artifact has no status; the error says why.
	os.MkdirAll(filepath.Join(root, Dir, "a"), 0o755)
	os.WriteFile(filepath.Join(root, Dir, "a", "a.go.md"), []byte("# hand-written\n"), 0o644)
	if got, err := s.Status("a/a.go", now); got != "" || !errors.Is(err, ErrMalformed) {
		t.Errorf("damaged: Status = %q, %v; want ErrMalformed", got, err)
	}
	if got, err := s.Status("../a.go", now); got != "" || err == nil {
		t.Errorf("Status(../a.go) = %q, %v; want an error", got, err)
	}
}

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
		{Meta{Fingerprint: fp, Status: Partial}, fp, Partial},
		{Meta{Fingerprint: fp, Status: Partial}, Fingerprint{SourceSHA256: "s2", CallersDigest: "c"}, Stale},
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
