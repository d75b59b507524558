package docsearch

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fileinfo/fileinfo/docsearch/embed"
)

// TestBodyText: a symbol's body text is its name, signature and source
// without the doc comment, wherever the source starts (a Python def
// whose parameters continue on the next lines, a Go method, a
// JavaScript function expression inside a longer line, a class's
// members line), and the whole text when no line starts the source.
func TestBodyText(t *testing.T) {
	cases := []struct {
		name       string
		path       string
		sym        CodeSymbol
		want, lack []string
	}{
		{"python def over lines", "flask/app.py", CodeSymbol{Name: "flask.app.Flask.run", Kind: "method",
			Signature: "def run( self, host: t.Optional[str] = None, ) -> None",
			Doc:       "Runs the application on a local development server.\n\n:param host: the hostname to listen on.",
			Body:      "def run(\n        self,\n        host: t.Optional[str] = None,\n    ) -> None:\n        run_simple(host)", Line: 1, End: 5},
			[]string{"Flask.run", "def run(", "run_simple(host)"}, []string{"development server", "hostname"}},
		{"go method", "command.go", CodeSymbol{Name: "github.com/spf13/cobra.Command.Execute", Kind: "method",
			Signature: "func (c *Command) Execute() error",
			Doc:       "Execute uses the args (os.Args[1:] by default)\nand run through the command tree.",
			Body:      "func (c *Command) Execute() error {\n\t_, err := c.ExecuteC()\n\treturn err\n}", Line: 1, End: 4},
			[]string{"Command.Execute", "c.ExecuteC()"}, []string{"command tree"}},
		{"javascript expression", "_createSet.js", CodeSymbol{Name: "_createSet.<createSet>", Kind: "function",
			Signature: "function(values)",
			Doc:       "Creates a set object of `values`.\n\n@private\n@param {Array} values The values to add to the set.",
			Body:      "var createSet = !Set ? noop : function(values) {\n  return new Set(values);\n};", Line: 1, End: 3},
			[]string{"new Set(values)"}, []string{"Creates a set object", "@private"}},
		{"class members", "tasks.py", CodeSymbol{Name: "asyncio.tasks.Task", Kind: "class",
			Signature: "class Task(futures._PyFuture)",
			Doc:       "A coroutine wrapped in a Future.",
			Body:      "members: get_coro cancel\nclass Task(futures._PyFuture):\n    pass", Line: 1, End: 3},
			[]string{"members: get_coro cancel", "class Task("}, []string{"coroutine wrapped"}},
		{"white space unlike the signature's", "app.py", CodeSymbol{Name: "app.Flask.name", Kind: "method",
			Signature: "def name(self) -> str: # type: ignore",
			Doc:       "The name of the application.",
			Body:      "def name(self) -> str:  # type: ignore\n        return self.import_name", Line: 1, End: 2},
			[]string{"self.import_name"}, []string{"name of the application"}},
		{"no doc", "a.go", CodeSymbol{Name: "pkg.Sum", Kind: "function", Signature: "func Sum(xs []int) int",
			Body: "func Sum(xs []int) int {\n\treturn total(xs)\n}", Line: 1, End: 3},
			[]string{"pkg.Sum", "func Sum(xs []int) int", "return total(xs)"}, nil},
		{"no line starts the source", "a.js", CodeSymbol{Name: "lib.<callback of setImmediate>", Kind: "function", Signature: "() =>",
			Doc: "Let the stream pump run first.", Body: "setImmediate(() => this.emit('ready'));", Line: 1, End: 1},
			[]string{"stream pump", "this.emit('ready')"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := bodyText(c.sym.Name, CodeText(c.path, c.sym))
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("body text lacks %q:\n%s", w, got)
				}
			}
			for _, l := range c.lack {
				if strings.Contains(got, l) {
					t.Errorf("body text holds the doc's %q:\n%s", l, got)
				}
			}
		})
	}
}

// TestBodyTextBounded: a long body is cut to maxBodyText bytes.
func TestBodyTextBounded(t *testing.T) {
	s := CodeSymbol{Name: "pkg.Long", Kind: "function", Signature: "func Long()",
		Body: "func Long() {\n" + strings.Repeat("\tx = append(x, y)\n", 500) + "}", Line: 1, End: 502}
	if got := bodyText(s.Name, CodeText("a.go", s)); len(got) > maxBodyText {
		t.Errorf("body text of %d bytes, want at most %d", len(got), maxBodyText)
	}
}

// FuzzBodyText: any document text gives a body text within bounds, valid
// UTF-8 when the text is, starting with the embedded name.
func FuzzBodyText(f *testing.F) {
	f.Add("pkg.F", "function pkg.F\nfunc F()\na.go:1-3\nF does it.\nfunc F() {\n}\n")
	f.Add("a.<callback of x>", "function a.<callback of x>\n() =>\na.js:1-1\ndoc\nx(() => y)\n")
	f.Add("C", "class C\nclass C\nc.py:1-2\nmembers: a b\nclass C:\n")
	f.Add("", "")
	f.Add("x", "\n\n\n\n")
	f.Fuzz(func(t *testing.T, title, text string) {
		got := bodyText(title, text)
		if len(got) > max(maxBodyText, len(embedName(title))+len(text)+2) {
			t.Errorf("body text of %d bytes", len(got))
		}
		if !strings.HasPrefix(got, embedName(title)+"\n") {
			t.Errorf("body text %q does not start with the name", got)
		}
		if utf8.ValidString(title) && utf8.ValidString(text) && !utf8.ValidString(got) {
			t.Errorf("body text %q is not UTF-8", got)
		}
	})
}

// bodyCode is a file of two Python methods: close, documented in the
// words of the question below though its code only schedules the close,
// and flush_pending, undocumented, whose code sends the buffer.
func bodyCode() []CodeFile {
	return []CodeFile{{Path: "net/transport.py", Symbols: []CodeSymbol{
		{Name: "net.transport.Transport.close", Kind: "method", Signature: "def close(self)",
			Doc:  "Write the buffered data to the transport and close it.",
			Body: "def close(self):\n        self._closing = True\n        self._loop.call_soon(self._call_connection_lost, None)", Line: 1, End: 3},
		{Name: "net.transport.Transport.flush_pending", Kind: "method", Signature: "def flush_pending(self)",
			Body: "def flush_pending(self):\n        sent = self._sock.send(self._buffer)\n        del self._buffer[:sent]\n        return sent", Line: 5, End: 8},
	}}}
}

// TestBodyFeature: featBody compares the query with what a function
// does, without its doc comment: the undocumented method whose code
// sends the buffer scores over the documented one whose doc has the
// question's words, and weighing the feature ranks it first, where
// without it the doc wins.
func TestBodyFeature(t *testing.T) {
	ix := openTest(t, mapFS(nil), Options{Embedder: embed.Default()})
	putCode(t, ix, bodyCode())
	const q = "write the buffered data to the transport"
	var cands []CodeCandidate
	if _, err := ix.Search(ctx, Query{Text: q, Scopes: []string{ScopeCode}, MinScore: zero(),
		CodeCandidates: func(c []CodeCandidate) { cands = c }}); err != nil {
		t.Fatal(err)
	}
	body := map[string]float64{}
	for _, c := range cands {
		body[c.Result.Symbol] = c.Features[featBody]
	}
	if w, c := body["net.transport.Transport.flush_pending"], body["net.transport.Transport.close"]; w <= c {
		t.Errorf("body feature: write %.3f, close %.3f; want write over close", w, c)
	}
	if got := firstCode(t, ix, q, nil); got != "net.transport.Transport.close" {
		t.Fatalf("built-in weights: first %s, want the documented close (the test needs the doc to win without the feature)", got)
	}
	w := CodeWeights()
	w[featBody] = 4
	if got := firstCode(t, ix, q, w); got != "net.transport.Transport.flush_pending" {
		t.Errorf("body weighed: first %s, want net.transport.Transport.flush_pending", got)
	}
}

// TestBodyFeatureNotComputed: with the built-in weights, which leave
// featBody at 0, a search embeds nothing for it: the query alone.
func TestBodyFeatureNotComputed(t *testing.T) {
	emb := &trigramEmbedder{}
	ix := openTest(t, mapFS(nil), Options{Embedder: emb})
	putCode(t, ix, bodyCode())
	if codeWeights[featBody] != 0 {
		t.Skip("featBody is weighed")
	}
	emb.texts.Store(0)
	firstCode(t, ix, "write the buffered data to the transport", nil)
	if n := emb.texts.Load(); n != 1 {
		t.Errorf("a search embedded %d texts, want 1 (the query)", n)
	}
	w := CodeWeights()
	w[featBody] = 1
	emb.texts.Store(0)
	firstCode(t, ix, "write the buffered data to the transport", w)
	if n := emb.texts.Load(); n != 3 {
		t.Errorf("a search weighing the body embedded %d texts, want 3 (the query and two bodies)", n)
	}
}

// BenchmarkCodeSearchBody is BenchmarkCodeSearch's queries with featBody
// weighed: the cost of embedding the bodies of the first codeWindow
// candidates with the default model.
func BenchmarkCodeSearchBody(b *testing.B) {
	for _, weigh := range []bool{false, true} {
		name := "off"
		if weigh {
			name = "on"
		}
		b.Run(name, func(b *testing.B) {
			ix := openTest(b, mapFS(map[string]string{}), Options{Embedder: embed.Default()})
			if err := ix.PutCode(ctx, syntheticCode(200), nil); err != nil {
				b.Fatal(err)
			}
			w := CodeWeights()
			if weigh {
				w[featBody] = 0.2
			}
			queries := []string{"parse the header of a request", "flush the session buffer to the stream"}
			searchCodeLoop(b, ix, queries, w)
		})
	}
}
