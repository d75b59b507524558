package server

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestYieldWaitsForCalls: background work waits while a tool call is in
// flight and shortly after, never past maxYield; other methods do not
// count.
func TestYieldWaitsForCalls(t *testing.T) {
	var nilF *foreground
	nilF.yield(context.Background()) // returns at once
	f := &foreground{}
	start := time.Now()
	f.yield(context.Background())
	if d := time.Since(start); d > quietFor {
		t.Errorf("yield with no call ever waited %v", d)
	}
	release := make(chan struct{})
	h := f.middleware()(func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		<-release
		return nil, nil
	})
	go h(context.Background(), "ping", nil)
	if f.busy() {
		t.Fatal("a ping counts as a tool call")
	}
	go h(context.Background(), toolsMethod, nil)
	for f.calls.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	ended := make(chan time.Time)
	go func() {
		time.Sleep(100 * time.Millisecond)
		close(release)
		ended <- time.Now()
	}()
	f.yield(context.Background())
	if gap := time.Since(<-ended); gap < quietFor/2 {
		t.Errorf("yield returned %v after the call ended, want about %v", gap, quietFor)
	}
	// A call that never ends holds background work until ctx is done
	// (or maxYield).
	stuck := make(chan struct{})
	defer close(stuck)
	go f.middleware()(func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		<-stuck
		return nil, nil
	})(context.Background(), toolsMethod, nil)
	for f.calls.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start = time.Now()
	f.yield(ctx)
	if d := time.Since(start); d > maxYield/2 {
		t.Errorf("a cancelled yield waited %v", d)
	}
}
