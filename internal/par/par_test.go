package par

import (
	"sync/atomic"
	"testing"
)

// TestFor: every item runs once, whatever the workers, and one worker
// runs them in order on the caller's goroutine.
func TestFor(t *testing.T) {
	for _, workers := range []int{-1, 0, 1, 2, 7, 100} {
		for _, n := range []int{0, 1, 5, 64} {
			counts := make([]atomic.Int32, n)
			For(workers, n, func(i int) { counts[i].Add(1) })
			for i := range counts {
				if c := counts[i].Load(); c != 1 {
					t.Errorf("%d workers, %d items: item %d ran %d times", workers, n, i, c)
				}
			}
		}
	}
	var order []int
	For(1, 4, func(i int) { order = append(order, i) })
	if len(order) != 4 || order[0] != 0 || order[3] != 3 {
		t.Errorf("one worker ran %v, want 0 1 2 3", order)
	}
}
