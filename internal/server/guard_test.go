package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// controlURIs are resource URIs the SDK's not-found error could not encode
// (it quotes them with %q, which is not JSON): a template's and no
// resource's.
var controlURIs = []string{artifactPrefix + "a\x00b", artifactPrefix + "\x01", "\x00", "x\x1f\u2028y"}

// expectNotFound reads uri, which must fail with a resource-not-found
// error naming uri, and then pings: the session must still answer.
func expectNotFound(t *testing.T, cs *mcp.ClientSession, uri string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangBound)
	defer cancel()
	_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != mcp.CodeResourceNotFound {
		t.Fatalf("read %q: %v; want a resource-not-found error", uri, err)
	}
	if want := `{"uri":` + jsonString(t, uri) + `}`; string(werr.Data) != want {
		t.Errorf("read %q: error data %s, want %s", uri, werr.Data, want)
	}
	if err := cs.Ping(ctx, nil); err != nil {
		t.Fatalf("ping after reading %q: %v", uri, err)
	}
}

func TestControlCharURIIsNotFound(t *testing.T) {
	s := connect(t, shop, Options{})
	for _, uri := range controlURIs {
		expectNotFound(t, s.cs, uri)
	}
}

func TestHTTPControlCharURIIsNotFound(t *testing.T) {
	s := connect(t, shop, Options{})
	ts := httptest.NewServer(s.srv.Handler(""))
	defer ts.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL + HTTPPath, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, uri := range controlURIs {
		expectNotFound(t, cs, uri)
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "index_status"}); err != nil {
		t.Fatalf("index_status after the bad reads: %v", err)
	}
}

// syncBuffer is a bytes.Buffer safe for concurrent writes, for logs.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func TestPanicIsAnError(t *testing.T) {
	var logs syncBuffer
	s := connect(t, shop, Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	m := s.srv.MCP()
	type pathIn struct {
		Path string `json:"path"`
	}
	mcp.AddTool(m, &mcp.Tool{Name: "boom"}, func(context.Context, *mcp.CallToolRequest, pathIn) (*mcp.CallToolResult, any, error) {
		var files map[string]int
		files["x"]++ // a nil map: panics
		return nil, nil, nil
	})
	m.AddResource(&mcp.Resource{URI: "fileinfo://boom", Name: "boom"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		panic("resource boom")
	})
	m.AddPrompt(&mcp.Prompt{Name: "boom"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		panic(errors.New("prompt boom"))
	})
	ctx := context.Background()

	msg := s.fails("boom", map[string]any{"path": "lib/store.go"}, "boom", "internal error", "assignment to entry in nil map")
	if strings.Contains(msg, "goroutine") {
		t.Errorf("the tool error holds a stack trace: %s", msg)
	}
	if log := logs.String(); !strings.Contains(log, "panic") || !strings.Contains(log, "tool=boom") || !strings.Contains(log, "path=lib/store.go") || !strings.Contains(log, "guard_test.go") {
		t.Errorf("no log of the panic naming the tool, its path and the stack:\n%s", log)
	}
	var werr *jsonrpc.Error
	if _, err := s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "fileinfo://boom"}); !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInternalError || !strings.Contains(werr.Message, "resource boom") {
		t.Errorf("read a panicking resource: %v; want an internal error", err)
	}
	if _, err := s.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "boom"}); !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInternalError || !strings.Contains(werr.Message, "prompt boom") {
		t.Errorf("get a panicking prompt: %v; want an internal error", err)
	}
	// The session still serves, once the load (which the panics did not
	// wait for) is done.
	if _, err := s.srv.ready(ctx, nil); err != nil {
		t.Fatal(err)
	}
	var st indexStatusOut
	s.ok("index_status", nil, &st)
	if st.Files == 0 {
		t.Errorf("index_status after the panics: %+v", st)
	}
}

// jsonString returns s as a JSON string.
func jsonString(t *testing.T, s string) string {
	t.Helper()
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
