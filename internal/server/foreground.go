package server

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// foreground counts the tool calls in flight and remembers when the last
// one ended, so that background work (the doc index, the code index, the
// graph for updates: on the Linux kernel each a minute of CPU) starts
// once the answers a client waits for are out: on two cores they
// otherwise share the CPU with it.
type foreground struct {
	calls atomic.Int64
	last  atomic.Int64 // Unix ns when a call last ended
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
				f.last.Store(time.Now().UnixNano())
				f.calls.Add(-1)
			}()
			return next(ctx, method, req)
		}
	}
}

// busy reports whether a call is in flight or ended within quietFor.
func (f *foreground) busy() bool {
	return f.calls.Load() > 0 || time.Since(time.Unix(0, f.last.Load())) < quietFor
}

// yield waits until f is not busy, at most maxYield, or ctx is done. A
// nil f never waits.
func (f *foreground) yield(ctx context.Context) {
	if f == nil {
		return
	}
	deadline := time.Now().Add(maxYield)
	for f.busy() && time.Now().Before(deadline) && ctx.Err() == nil {
		time.Sleep(yieldPoll)
	}
}
