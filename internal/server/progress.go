package server

import (
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// progressEvery is how often a long load reports progress.
var progressEvery = 250 * time.Millisecond

// reportLoad sends MCP progress notifications for req, if its client
// asked for them with a progress token, while ws loads: the files
// extracted so far. It returns when the load ends or ctx is done.
func reportLoad(ctx context.Context, req mcp.Request, ws *workspace) {
	params, ok := req.GetParams().(interface{ GetProgressToken() any })
	if !ok || params.GetProgressToken() == nil {
		return
	}
	token := params.GetProgressToken()
	session, ok := req.GetSession().(*mcp.ServerSession)
	if !ok {
		return
	}
	t := time.NewTicker(progressEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ws.ready:
			return
		case <-t.C:
			n := ws.done.Load()
			session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
				ProgressToken: token,
				Progress:      float64(n),
				Message:       fmt.Sprintf("loading %s: %d files extracted", ws.root, n),
			})
		}
	}
}
