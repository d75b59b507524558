// Package llm talks to an OpenAI-compatible chat completions endpoint
// (/v1/chat/completions), for headless enrichment: one system and one user
// message in, the answer's text out. Requests time out, and rate limits
// and server errors are retried with backoff. The API key is sent as a
// bearer token, only to the endpoint's origin (a redirect elsewhere is
// refused); neither it nor a credential in the URL appears in an error.
package llm

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
	"time"

	"github.com/fileinfo/fileinfo/internal/secret"
)

// Client is one model at one endpoint.
type Client struct {
	Model   string
	BaseURL string // up to and including /v1
	Key     string // bearer token; may be empty for local servers
	HTTP    *http.Client
	// Timeout bounds one request. Default 5 min: a model writing a long
	// report is slow.
	Timeout time.Duration
	// Retries is how many times a rate-limited or failed request is
	// retried. Default 4.
	Retries int
	// Backoff is the first wait before a retry; it doubles. Default 1 s.
	Backoff time.Duration
}

// Parse reads a model spec "openai:MODEL@URL", where URL is the endpoint's
// base (https://api.openai.com/v1, http://localhost:11434/v1); /v1 is
// added when the URL has no path. A URL with credentials in it
// (user:password@) is refused; its errors name the spec with key and any
// credential in it masked.
func Parse(spec, key string) (*Client, error) {
	rest, ok := strings.CutPrefix(spec, "openai:")
	if !ok {
		return nil, fmt.Errorf("--llm %q: want openai:MODEL@URL (an OpenAI-compatible endpoint)", secret.Redact(spec, key))
	}
	at := strings.Index(rest, "@")
	if at <= 0 || at == len(rest)-1 {
		return nil, fmt.Errorf("--llm %q: want openai:MODEL@URL, e.g. openai:gpt-4o-mini@https://api.openai.com/v1", secret.Redact(spec, key))
	}
	model, base := rest[:at], rest[at+1:]
	shown := secret.Redact("openai:"+model+"@"+secret.RedactURL(base), key)
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--llm %q: %q is not an http(s) URL", shown, secret.Redact(secret.RedactURL(base), key))
	}
	if u.User != nil {
		return nil, fmt.Errorf("--llm %q: put credentials in the environment, not in the URL", shown)
	}
	if strings.Trim(u.Path, "/") == "" {
		u.Path = "/v1"
	}
	return &Client{Model: model, BaseURL: strings.TrimSuffix(u.String(), "/"), Key: key}, nil
}

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type request struct {
	Model       string    `json:"model"`
	Messages    []message `json:"messages"`
	Temperature float64   `json:"temperature"`
}

type response struct {
	Choices []struct {
		Message      message `json:"message"`
		FinishReason string  `json:"finish_reason"`
	} `json:"choices"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// Complete sends one chat and returns the answer's text. Its error names
// the model and the endpoint, with c.Key and the URL's credentials
// masked, and quotes at most maxQuote bytes of the endpoint's answer.
func (c *Client) Complete(ctx context.Context, system, user string) (string, error) {
	body, err := json.Marshal(request{Model: c.Model, Messages: []message{{"system", system}, {"user", user}}})
	if err != nil {
		return "", err
	}
	retries, backoff := c.Retries, c.Backoff
	if retries <= 0 {
		retries = 4
	}
	if backoff <= 0 {
		backoff = time.Second
	}
	var last error
	for attempt := 0; attempt <= retries; attempt++ {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return "", ctx.Err()
			case <-time.After(backoff):
			}
			backoff *= 2
		}
		text, retry, err := c.once(ctx, body)
		if err == nil {
			return text, nil
		}
		last = err
		if !retry || ctx.Err() != nil {
			break
		}
	}
	return "", secret.Error(fmt.Errorf("%s at %s: %w", c.Model, c.BaseURL, last), c.secrets()...)
}

// secrets returns what no error may hold: the key and the credentials in
// the endpoint's URL.
func (c *Client) secrets() []string { return append(secret.InURL(c.BaseURL), c.Key) }

// maxQuote is the most an error quotes of an endpoint's message: enough
// for "Incorrect API key provided…", not a page of HTML.
const maxQuote = 300

// once sends one request; retry says whether a failure is worth retrying.
func (c *Client) once(ctx context.Context, body []byte) (text string, retry bool, err error) {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = 5 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// Joined as a path, so a query in BaseURL stays the query.
	endpoint, err := url.JoinPath(c.BaseURL, "chat/completions")
	if err != nil {
		return "", false, err
	}
	req, err := http.NewRequestWithContext(ctx, "POST", endpoint, bytes.NewReader(body))
	if err != nil {
		return "", false, err
	}
	req.Header.Set("Content-Type", "application/json")
	if c.Key != "" {
		req.Header.Set("Authorization", "Bearer "+c.Key)
	}
	resp, err := secret.Client(c.HTTP).Do(req)
	if err != nil {
		// The error names the URL; Complete masks what it holds.
		return "", !errors.Is(err, secret.ErrOtherOrigin), err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return "", true, err
	}
	var r response
	jerr := json.Unmarshal(data, &r)
	if resp.StatusCode != http.StatusOK {
		msg := http.StatusText(resp.StatusCode)
		if jerr == nil && r.Error != nil && r.Error.Message != "" {
			msg = secret.Quote([]byte(r.Error.Message), maxQuote, c.secrets()...)
		}
		retry := resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500
		return "", retry, fmt.Errorf("HTTP %d: %s", resp.StatusCode, msg)
	}
	if jerr != nil {
		return "", false, fmt.Errorf("the answer is not JSON: %w", jerr)
	}
	if len(r.Choices) == 0 {
		return "", false, errors.New("the answer has no choices")
	}
	return r.Choices[0].Message.Content, false, nil
}
