package server

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// foreground counts the tool calls in flight and remembers when the last
// one ended, so that background work (the doc index, the code index:
// on the Linux kernel each a minute of CPU) starts
// once the answers a client waits for are out: on two cores they
// otherwise share the CPU with it.
type foreground struct {
	calls atomic.Int64
	last  atomic.Int64 // Unix ns when a call last ended
	clock clock        // nil: the real one; tests set their own
}

// clock is where foreground reads the time and waits.
type clock interface {
	Now() time.Time
	Sleep(time.Duration)
}

func (f *foreground) now() time.Time {
	if f.clock != nil {
		return f.clock.Now()
	}
	return time.Now()
}

func (f *foreground) sleep(d time.Duration) {
	if f.clock != nil {
		f.clock.Sleep(d)
		return
	}
	time.Sleep(d)
}

// Thresholds of yield: how long the server must have been without a
// call, and how long background work waits at the most.
const (
	quietFor    = 200 * time.Millisecond
	maxYield    = 3 * time.Second
	yieldPoll   = 20 * time.Millisecond
	toolsMethod = "tools/call"
)

// middleware counts the tool calls going through it.
func (f *foreground) middleware() mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != toolsMethod {
				return next(ctx, method, req)
			}
			f.calls.Add(1)
			defer func() {
				f.last.Store(f.now().UnixNano())
				f.calls.Add(-1)
			}()
			return next(context.WithValue(ctx, countedCall{}, f), method, req)
		}
	}
}

// busy reports whether a call is in flight or ended within quietFor.
func (f *foreground) busy() bool {
	return f.calls.Load() > 0 || f.now().Sub(time.Unix(0, f.last.Load())) < quietFor
}

// yield waits until f is not busy, at most maxYield, or ctx is done. A
// nil f never waits.
func (f *foreground) yield(ctx context.Context) {
	if f == nil {
		return
	}
	deadline := f.now().Add(maxYield)
	for f.busy() && f.now().Before(deadline) && ctx.Err() == nil {
		f.sleep(yieldPoll)
	}
}

// countedCall is the context key under which middleware marks the calls
// it counts, with the foreground that counts them.
type countedCall struct{}

// waiting marks the call of ctx, if f counts it, as waiting for
// background work: until the returned func is called it does not count
// as busy, so the work it waits for does not yield to it (a search that
// waited for the doc index while the doc index waited for the search to
// end lost both their waits, 3 s, on warm starts whose saved symbols
// were stale). A nil f, or a ctx that is no counted call (a resource, the
// view), marks nothing.
func (f *foreground) waiting(ctx context.Context) (done func()) {
	if f == nil || ctx.Value(countedCall{}) != f {
		return func() {}
	}
	f.calls.Add(-1)
	return func() { f.calls.Add(1) }
}
