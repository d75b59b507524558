package docsearch

import (
	"context"
	"strings"
	"sync"
	"testing"
)

func TestEmbedName(t *testing.T) {
	for q, want := range map[string]string{
		"github.com/spf13/cobra.Command.SetErrPrefix": "Command.SetErrPrefix",
		"github.com/sirupsen/logrus.Panic":            "logrus.Panic",
		"flask.app.Flask.make_config":                 "Flask.make_config",
		"fp._baseConvert.baseConvert.castFixed":       "baseConvert.castFixed",
		"register_blueprint":                          "register_blueprint",
		"Flask.url_for":                               "Flask.url_for",
		"<callback of .forEach>":                      "<callback of .forEach>",
		"mocha.<callback of (…)>.CorkedRequest":       "<callback of (…)>.CorkedRequest",
		".": ".",
		"":  "",
	} {
		if got := embedName(q); got != want {
			t.Errorf("embedName(%q) = %q, want %q", q, got, want)
		}
	}
}

// recordingEmbedder keeps the texts it embeds.
type recordingEmbedder struct {
	trigramEmbedder
	mu    sync.Mutex
	texts []string
}

func (e *recordingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	e.mu.Lock()
	e.texts = append(e.texts, texts...)
	e.mu.Unlock()
	return e.trigramEmbedder.Embed(ctx, texts)
}

// TestCodeEmbedsNameWithoutPackage: a symbol's package path is embedded
// once (its text's first line), not once more for each time its name is.
func TestCodeEmbedsNameWithoutPackage(t *testing.T) {
	emb := &recordingEmbedder{}
	ix := openTest(t, mapFS(nil), Options{Embedder: emb})
	putCode(t, ix, []CodeFile{{Path: "command.go", Symbols: []CodeSymbol{
		{Name: "github.com/spf13/cobra.Command.SetErrPrefix", Kind: "method", Signature: "func (c *Command) SetErrPrefix(s string)",
			Body: "func (c *Command) SetErrPrefix(s string) {\n\tc.errPrefix = s\n}", Line: 10, End: 12},
	}}})
	var text string
	for _, s := range emb.texts {
		if strings.Contains(s, "SetErrPrefix") {
			text = s
		}
	}
	if text == "" {
		t.Fatalf("the symbol was not embedded: %q", emb.texts)
	}
	if n := strings.Count(text, "spf13"); n != 1 {
		t.Errorf("package path embedded %d times, want 1:\n%s", n, text)
	}
	if n := strings.Count(text, "Command.SetErrPrefix"); n != titleWeight+1 {
		t.Errorf("name embedded %d times, want %d:\n%s", n, titleWeight+1, text)
	}
}
