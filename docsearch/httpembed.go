package docsearch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/fileinfo/fileinfo/internal/secret"
)

// HTTPOptions configure an embedder served over HTTP.
type HTTPOptions struct {
	// BaseURL is the server: for Ollama "http://127.0.0.1:11434", for an
	// OpenAI-compatible server the URL before /v1/embeddings.
	BaseURL string
	Model   string
	APIKey  string // sent as a bearer token when not empty
	// Dim is the vector size if known; 0 learns it from the first answer
	// (Dim returns 0 until then).
	Dim int
	// Batch is the most texts sent in one request; 0 means 32.
	Batch int
	// Timeout bounds one request; 0 means 60 s.
	Timeout time.Duration
	// Retries is how many times a failed request is tried again (network
	// errors, 429 and 5xx answers), with doubling back-off from 500 ms;
	// 0 means 3, negative none.
	Retries int
	// Client sends the requests; nil means http.DefaultClient. Either way
	// a redirect to another origin than BaseURL's is refused, so the key
	// and the texts go nowhere else.
	Client *http.Client
}

// httpEmbedder embeds through Ollama's /api/embed or an OpenAI-compatible
// /v1/embeddings. Its errors mask the API key and the credentials in
// BaseURL, and quote at most maxQuote bytes of a server's answer.
type httpEmbedder struct {
	kind string // "ollama" or "openai"
	o    HTTPOptions
	mu   sync.Mutex
	dim  int
	wait func(time.Duration) // back-off sleep; replaced in tests
}

// NewOllama returns an Embedder that calls Ollama's /api/embed.
func NewOllama(o HTTPOptions) Embedder { return newHTTPEmbedder("ollama", o) }

// NewOpenAI returns an Embedder that calls an OpenAI-compatible
// /v1/embeddings endpoint.
func NewOpenAI(o HTTPOptions) Embedder { return newHTTPEmbedder("openai", o) }

func newHTTPEmbedder(kind string, o HTTPOptions) *httpEmbedder {
	if o.Batch <= 0 {
		o.Batch = 32
	}
	if o.Timeout <= 0 {
		o.Timeout = 60 * time.Second
	}
	if o.Retries == 0 {
		o.Retries = 3
	}
	o.Client = secret.Client(o.Client)
	o.BaseURL = strings.TrimRight(o.BaseURL, "/")
	return &httpEmbedder{kind: kind, o: o, dim: o.Dim, wait: time.Sleep}
}

// Name is the kind and the model: vectors of another model are not
// comparable.
func (e *httpEmbedder) Name() string { return e.kind + ":" + e.o.Model }

func (e *httpEmbedder) Dim() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.dim
}

// Embed sends texts in batches and returns their vectors, L2-normalised.
func (e *httpEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for i := 0; i < len(texts); i += e.o.Batch {
		batch := texts[i:min(i+e.o.Batch, len(texts))]
		vs, err := e.embedBatch(ctx, batch)
		if err != nil {
			return nil, err
		}
		if len(vs) != len(batch) {
			return nil, fmt.Errorf("%s: %d vectors for %d texts", e.Name(), len(vs), len(batch))
		}
		e.mu.Lock()
		for _, v := range vs {
			if e.dim == 0 {
				e.dim = len(v)
			}
			if len(v) != e.dim || len(v) == 0 {
				e.mu.Unlock()
				return nil, fmt.Errorf("%s: vector of %d dimensions, want %d", e.Name(), len(v), e.dim)
			}
			normalize(v)
		}
		e.mu.Unlock()
		out = append(out, vs...)
	}
	return out, nil
}

// errRetry marks a failure worth trying again.
var errRetry = errors.New("retryable")

func (e *httpEmbedder) embedBatch(ctx context.Context, batch []string) ([][]float32, error) {
	path := "v1/embeddings"
	if e.kind == "ollama" {
		path = "api/embed"
	}
	// Joined as a path, so a query in BaseURL stays the query.
	endpoint, err := url.JoinPath(e.o.BaseURL, path)
	if err != nil {
		return nil, secret.Error(fmt.Errorf("%s: %w", e.Name(), err), e.secrets()...)
	}
	payload, err := json.Marshal(map[string]any{"model": e.o.Model, "input": batch})
	if err != nil {
		return nil, err
	}
	backoff := 500 * time.Millisecond
	for attempt := 0; ; attempt++ {
		vs, err := e.post(ctx, endpoint, payload)
		if err == nil {
			return vs, nil
		}
		if !errors.Is(err, errRetry) || attempt >= e.o.Retries || ctx.Err() != nil {
			return nil, secret.Error(fmt.Errorf("%s: %w", e.Name(), err), e.secrets()...)
		}
		e.wait(backoff)
		backoff *= 2
	}
}

// secrets returns what no error may hold: the key and the credentials in
// the server's URL.
func (e *httpEmbedder) secrets() []string { return append(secret.InURL(e.o.BaseURL), e.o.APIKey) }

// maxQuote is the most an error quotes of a server's answer.
const maxQuote = 300

// post makes one request and decodes the vectors.
func (e *httpEmbedder) post(ctx context.Context, endpoint string, payload []byte) ([][]float32, error) {
	ctx, cancel := context.WithTimeout(ctx, e.o.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(payload))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if e.o.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+e.o.APIKey)
	}
	resp, err := e.o.Client.Do(req)
	if errors.Is(err, secret.ErrOtherOrigin) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errRetry, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errRetry, err)
	}
	if resp.StatusCode != http.StatusOK {
		err := fmt.Errorf("POST %s: %d %s: %s", endpoint, resp.StatusCode, http.StatusText(resp.StatusCode), secret.Quote(data, maxQuote, e.secrets()...))
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
			err = fmt.Errorf("%w: %v", errRetry, err)
		}
		return nil, err
	}
	if e.kind == "ollama" {
		var r struct {
			Embeddings [][]float32 `json:"embeddings"`
		}
		if err := json.Unmarshal(data, &r); err != nil {
			return nil, fmt.Errorf("decode %s: %w", endpoint, err)
		}
		return r.Embeddings, nil
	}
	var r struct {
		Data []struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("decode %s: %w", endpoint, err)
	}
	out := make([][]float32, len(r.Data))
	for _, d := range r.Data {
		if d.Index < 0 || d.Index >= len(out) || out[d.Index] != nil {
			return nil, fmt.Errorf("decode %s: bad index %d", endpoint, d.Index)
		}
		out[d.Index] = d.Embedding
	}
	return out, nil
}
