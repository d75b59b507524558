package main

import (
	"bytes"
	"testing"

	"github.com/fileinfo/fileinfo/extract"
)

func TestLoadProgressSilentOffTerminal(t *testing.T) {
	var b bytes.Buffer
	p := newLoadProgress(&b)
	p.update(extract.Progress{Done: 1, Total: 2, Read: 100, Size: 200})
	p.update(extract.Progress{Done: 2, Total: 2, Read: 200, Size: 200})
	p.finish()
	if b.Len() != 0 {
		t.Errorf("drew on a non-terminal: %q", b.String())
	}
}
