package main

import (
	"bytes"
	"testing"
)

func TestLoadProgressSilentOffTerminal(t *testing.T) {
	var b bytes.Buffer
	p := newLoadProgress(&b)
	p.update(1, 2, 100)
	p.update(2, 2, 200)
	p.finish()
	if b.Len() != 0 {
		t.Errorf("drew on a non-terminal: %q", b.String())
	}
}
