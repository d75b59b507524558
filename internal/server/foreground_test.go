package server

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeClock is a clock whose time moves only when yield sleeps: each
// Sleep adds its duration, then runs onSleep (if set) with the number of
// sleeps so far, at the time reached.
type fakeClock struct {
	mu      sync.Mutex
	now     time.Time
	sleeps  int
	onSleep func(n int)
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.sleeps++
	n, f := c.sleeps, c.onSleep
	c.mu.Unlock()
	if f != nil {
		f(n)
	}
}

// call runs a request of method through f's middleware until release is
// closed; it returns once the handler runs, and done is closed once the
// middleware has returned.
func call(f *foreground, method string, release <-chan struct{}) (done <-chan struct{}) {
	entered, ended := make(chan struct{}), make(chan struct{})
	h := f.middleware()(func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		close(entered)
		<-release
		return nil, nil
	})
	go func() {
		defer close(ended)
		h(context.Background(), method, nil)
	}()
	<-entered
	return ended
}

// TestYieldWaitsForCalls: background work waits while a tool call is in
// flight and quietFor after it ends, never past maxYield nor past its
// context; other methods do not count. The clock is the test's: time
// moves only as yield sleeps, so the load of the machine changes nothing.
func TestYieldWaitsForCalls(t *testing.T) {
	var nilF *foreground
	nilF.yield(context.Background()) // returns at once
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clk := &fakeClock{now: start}
	f := &foreground{clock: clk}
	f.yield(context.Background())
	if clk.sleeps != 0 {
		t.Errorf("yield with no call ever slept %d times", clk.sleeps)
	}

	// A ping in flight is no tool call.
	release := make(chan struct{})
	pinged := call(f, "ping", release)
	if f.busy() {
		t.Error("a ping counts as a tool call")
	}

	// A tool call in flight, which ends at the fifth sleep: yield returns
	// at its first poll quietFor after the end.
	done := call(f, toolsMethod, release)
	if !f.busy() {
		t.Fatal("a tool call in flight does not count")
	}
	var ended time.Time
	clk.onSleep = func(n int) {
		if n == 5 {
			close(release)
			<-done
			<-pinged
			ended = clk.Now()
		}
	}
	f.yield(context.Background())
	if waited := clk.Now().Sub(ended); ended.IsZero() || waited < quietFor || waited >= quietFor+yieldPoll {
		t.Errorf("yield returned %v after the call ended (at %v), want %v to %v", waited, ended.Sub(start), quietFor, quietFor+yieldPoll)
	}
	if f.busy() {
		t.Error("busy after yield returned")
	}

	// A call that never ends holds background work for maxYield... (or,
	// if yield forgot maxYield, until the test gives up at 10 times it).
	stuck := make(chan struct{})
	defer close(stuck)
	call(f, toolsMethod, stuck)
	from := clk.Now()
	giveUp, stop := context.WithCancel(context.Background())
	defer stop()
	clk.onSleep = func(int) {
		if clk.Now().Sub(from) > 10*maxYield {
			stop()
		}
	}
	f.yield(giveUp)
	if waited := clk.Now().Sub(from); waited < maxYield || waited >= maxYield+yieldPoll {
		t.Errorf("a call that never ends held yield for %v, want maxYield (%v)", waited, maxYield)
	}

	// ...or until its context is done: cancelled at the third sleep.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	from = clk.Now()
	clk.mu.Lock()
	clk.sleeps = 0
	clk.mu.Unlock()
	clk.onSleep = func(n int) {
		if n == 3 {
			cancel()
		}
	}
	f.yield(ctx)
	if waited := clk.Now().Sub(from); waited != 3*yieldPoll {
		t.Errorf("a yield cancelled at its third poll waited %v, want %v", waited, 3*yieldPoll)
	}
}

// TestWaitingCallDoesNotHoldYield: a tool call that waits for background
// work (marked with waiting) does not make that work yield to it, and
// counts again once its wait ends; a context that is no counted call
// marks nothing.
func TestWaitingCallDoesNotHoldYield(t *testing.T) {
	clk := &fakeClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	f := &foreground{clock: clk}
	waited, release, resume := make(chan struct{}), make(chan struct{}), make(chan struct{})
	h := f.middleware()(func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		done := f.waiting(ctx)
		close(waited)
		<-resume
		done()
		<-release
		return nil, nil
	})
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		h(context.Background(), toolsMethod, nil)
	}()
	<-waited
	if f.busy() {
		t.Error("a call waiting for background work counts as busy")
	}
	f.yield(context.Background())
	if clk.sleeps != 0 {
		t.Errorf("yield slept %d times for a waiting call", clk.sleeps)
	}
	close(resume)
	for f.calls.Load() != 1 {
		time.Sleep(time.Millisecond)
	}
	if !f.busy() {
		t.Error("the call does not count again once its wait ended")
	}
	close(release)
	<-ended

	f.waiting(context.Background())() // no counted call: no change
	if n := f.calls.Load(); n != 0 {
		t.Errorf("calls = %d after a mark outside a call", n)
	}
	var nilF *foreground
	nilF.waiting(context.Background())()
}
