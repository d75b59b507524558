package server

import (
	"runtime/metrics"
	"testing"
	"time"
)

// forcedGCs returns the collections forced so far (runtime.GC and
// debug.FreeOSMemory).
func forcedGCs() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestStartReleasesMemory: once the start's work is over (the load and
// the code syncs), the memory it freed goes back to the system, with a
// collection (debug.FreeOSMemory); answers go on after it.
func TestStartReleasesMemory(t *testing.T) {
	before := forcedGCs()
	released := make(chan uint64, 1)
	s := connect(t, docsRepo(), Options{NoWatch: true, hooks: &testHooks{released: func() { released <- forcedGCs() }}})
	select {
	case after := <-released:
		if after <= before {
			t.Errorf("the start ended without a collection: %d forced before, %d after", before, after)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the start's work never ended")
	}
	var fi fileInfoOut
	s.ok("file_info", map[string]any{"path": "lib/store.go"}, &fi)
}
