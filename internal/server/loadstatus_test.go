package server

import (
	"strings"
	"testing"
)

func TestLoadProgressStatus(t *testing.T) {
	var p loadProgress
	if st := p.status(); st != nil {
		t.Fatalf("before the first file: %+v", st)
	}
	p.saw(2, 10, 3_456_789)
	p.saw(1, 10, 1_000_000) // a late report from another worker: ignored
	st := p.status()
	if st == nil || st.Done != 2 || st.Total != 10 || st.MB != 3.45 || !strings.HasPrefix(st.Line, "3.5 MB") {
		t.Fatalf("status = %+v", st)
	}
	p.saw(10, 10, 9_000_000)
	if st := p.status(); st.ETASeconds != 0 || strings.Contains(st.Line, "ETA") {
		t.Errorf("no ETA once done: %+v", st)
	}
}
