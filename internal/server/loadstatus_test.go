package server

import (
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/extract"
)

func TestLoadProgressStatus(t *testing.T) {
	var p loadProgress
	if st := p.status(); st != nil {
		t.Fatalf("before the first file: %+v", st)
	}
	p.saw(extract.Progress{Done: 2, Total: 10, Read: 3_456_789, Size: 9_000_000})
	p.saw(extract.Progress{Done: 1, Total: 10, Read: 1_000_000, Size: 9_000_000}) // a late report from another worker: ignored
	st := p.status()
	if st == nil || st.Done != 2 || st.Total != 10 || st.MB != 3.45 || st.TotalMB != 9 || !strings.HasPrefix(st.Line, "3.5/9.0 MB") {
		t.Fatalf("status = %+v", st)
	}
	p.saw(extract.Progress{Done: 10, Total: 10, Read: 9_000_000, Size: 9_000_000})
	if st := p.status(); st.ETASeconds != 0 || strings.Contains(st.Line, "ETA") {
		t.Errorf("no ETA once done: %+v", st)
	}
}
