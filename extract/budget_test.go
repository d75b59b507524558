package extract

import (
	"runtime"
	"testing"
	"time"
)

// TestBudgetCountsCPU: a file's budget is spent by work, not by waiting:
// a thread that sleeps (as one does on a machine busy with other jobs)
// keeps its budget, and one that works spends it.
func TestBudgetCountsCPU(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the thread CPU clock is read on Linux only")
	}
	b, done := startBudget(50 * time.Millisecond)
	defer done()
	time.Sleep(200 * time.Millisecond)
	if b.over() {
		t.Fatal("the budget was spent by sleeping")
	}
	x := 0
	for i := 0; !b.over(); i++ {
		x += i * i // work until the budget is spent; a broken clock hangs here, and the test's timeout reports it
	}
	_ = x
	if (cpuBudget{}).over() {
		t.Error("the zero budget is limited")
	}
}
