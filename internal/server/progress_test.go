package server

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestSetWorkspaceRootReportsProgress: a client that asks for progress
// gets notifications while the new root loads. The load of the new root
// is held (by a test hook) until the first notification has come, so the
// test does not depend on the load outlasting a tick of progressEvery.
func TestSetWorkspaceRootReportsProgress(t *testing.T) {
	defer func(d time.Duration) { progressEvery = d }(progressEvery)
	progressEvery = time.Millisecond
	big := map[string]string{}
	for i := range 300 {
		big[fmt.Sprintf("pkg%d/m%d.py", i%10, i)] = fmt.Sprintf("def f%d():\n    return g%d()\n\ndef g%d():\n    return %d\n", i, i, i, i)
	}
	other := t.TempDir()
	otherAbs, err := filepath.EvalSymlinks(other)
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	hold := func(root string) {
		if root == otherAbs {
			<-release
		}
	}
	s := connect(t, shop, Options{NoWatch: true, AllowRoots: []string{other}, hooks: &testHooks{load: hold}})
	releaseLoad := sync.OnceFunc(func() { close(release) })
	t.Cleanup(releaseLoad) // before the server closes, should the test fail first
	writeTree(t, other, big)

	var mu sync.Mutex
	var got []*mcp.ProgressNotificationParams
	client := mcp.NewClient(&mcp.Implementation{Name: "progress", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			got = append(got, req.Params)
			mu.Unlock()
		},
	})
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := s.srv.MCP().Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: "set_workspace_root", Arguments: map[string]any{"path": other}}
	params.SetProgressToken("switch-1")
	type result struct {
		res *mcp.CallToolResult
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := cs.CallTool(ctx, params)
		done <- result{res, err}
	}()
	notified := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(got) > 0
	}
	waitFor(t, "a progress notification while the load is held", notified)
	releaseLoad()
	r := <-done
	if r.err != nil || r.res.IsError {
		t.Fatalf("set_workspace_root: %v %v", r.err, r.res)
	}
	mu.Lock()
	defer mu.Unlock()
	last := -1.0
	for _, p := range got {
		if p.ProgressToken != "switch-1" || p.Progress < last || p.Progress > 300 {
			t.Errorf("progress %+v after %v", p, last)
		}
		last = p.Progress
	}
}
