package server

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestSetWorkspaceRootReportsProgress(t *testing.T) {
	defer func(d time.Duration) { progressEvery = d }(progressEvery)
	progressEvery = time.Millisecond
	big := map[string]string{}
	for i := range 300 {
		big[fmt.Sprintf("pkg%d/m%d.py", i%10, i)] = fmt.Sprintf("def f%d():\n    return g%d()\n\ndef g%d():\n    return %d\n", i, i, i, i)
	}
	other := t.TempDir()
	s := connect(t, shop, Options{NoWatch: true, AllowRoots: []string{other}})
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
	res, err := cs.CallTool(ctx, params)
	if err != nil || res.IsError {
		t.Fatalf("set_workspace_root: %v %v", err, res)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) == 0 {
		t.Fatal("no progress notification")
	}
	last := -1.0
	for _, p := range got {
		if p.ProgressToken != "switch-1" || p.Progress < last || p.Progress > 300 {
			t.Errorf("progress %+v after %v", p, last)
		}
		last = p.Progress
	}
}
