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
		"lib.app.<callback of app.get('/users')>":     "app.<callback of app.get('/users')>",
		"lib.response.res.sendFile.<callback of .on>": "sendFile.<callback of .on>",
		"a.b.Foo::operator>":                          "b.Foo::operator>",
		".":                                           ".",
		"":                                            "",
	} {
		if got := embedName(q); got != want {
			t.Errorf("embedName(%q) = %q, want %q", q, got, want)
		}
	}
}

// TestLocalNameOfPlace checks that a function named by its place (a
// JavaScript callback) has the place as its own name, not the part of it
// after its last dot: the callee's name, weighed nameWeight times as if
// the callback bore it.
func TestLocalNameOfPlace(t *testing.T) {
	for q, want := range map[string]string{
		"lib.router.index.<callback of .forEach>":     "<callback of .forEach>",
		"lib.app.<callback of app.get('/users')>":     "<callback of app.get('/users')>",
		"mocha.<callback of (…)>.CorkedRequest":       "CorkedRequest",
		"github.com/spf13/cobra.Command.SetErrPrefix": "SetErrPrefix",
		"std::vector<std::string>::push_back":         "push_back",
		"Foo::operator>":                              "operator>",
		"Foo::operator<":                              "operator<",
		"flask.app.Flask.make_config":                 "make_config",
		"<returned>":                                  "<returned>",
		"lib.x.<function>":                            "<function>",
	} {
		if got := localName(q); got != want {
			t.Errorf("localName(%q) = %q, want %q", q, got, want)
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

func FuzzLastSep(f *testing.F) {
	for _, q := range []string{"lib.app.<callback of app.get('/users')>", "mocha.<callback of (…)>.CorkedRequest", "Foo::operator>", "a<b.c", ">>.<", ""} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		i := lastSep(q, ".:")
		if i < -1 || i >= len(q) || i >= 0 && q[i] != '.' && q[i] != ':' {
			t.Fatalf("lastSep(%q) = %d", q, i)
		}
		if i < 0 && strings.ContainsAny(q, ".:") && !strings.ContainsAny(q, "<>") {
			t.Fatalf("lastSep(%q) found no separator", q)
		}
		_ = localName(q)
		_ = embedName(q)
	})
}
