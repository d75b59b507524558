package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEnrichCommand runs `fileinfo enrich --all` against a fake
// OpenAI-compatible endpoint that documents what each prompt lists.
func TestEnrichCommand(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.py"), []byte("def helper():\n    return 1\n\ndef main():\n    return helper()\n"), 0o644)
	entry := regexp.MustCompile("(?m)^- function `([^`]+)`")
	var sawKey string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sawKey = r.Header.Get("Authorization")
		var req struct {
			Messages []struct{ Content string } `json:"messages"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		var fns []map[string]string
		for _, m := range entry.FindAllStringSubmatch(req.Messages[1].Content, -1) {
			fns = append(fns, map[string]string{"name": m[1], "purpose": "Does " + m[1] + ".", "implementation": "1. x"})
		}
		report, _ := json.Marshal(map[string]any{"path": "a.py", "overview": "Two functions.", "functions": fns})
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]string{"role": "assistant", "content": string(report)}}}})
	}))
	defer srv.Close()
	t.Setenv("FILEINFO_LLM_KEY", "sk-test-key")
	var out, errb strings.Builder
	code := run(t.Context(), []string{"enrich", "--root", root, "--all", "--llm", "openai:fake@" + srv.URL}, &out, &errb)
	if code != 0 || !strings.Contains(out.String(), "1 documented") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out.String(), errb.String())
	}
	if sawKey != "Bearer sk-test-key" {
		t.Errorf("the endpoint saw Authorization %q", sawKey)
	}
	md, _ := os.ReadFile(filepath.Join(root, ".artifacts", "a.py.md"))
	if !strings.Contains(string(md), "Does helper.") {
		t.Errorf("artifact:\n%s", md)
	}
	if strings.Contains(out.String()+errb.String(), "sk-test-key") {
		t.Error("the key was printed")
	}
	if code := run(t.Context(), []string{"enrich", "--root", root, "--llm", "openai:fake@" + srv.URL}, &out, &errb); code != 2 {
		t.Errorf("enrich without --all or paths: exit %d, want 2", code)
	}
}

// TestEnrichCommandKeepsCredentialsSecret runs `fileinfo enrich` against an
// endpoint that refuses the key and echoes every credential it was sent,
// and with credentials in the URL, and checks that nothing printed holds
// them.
func TestEnrichCommandKeepsCredentialsSecret(t *testing.T) {
	const key = "sk-env-0123456789abcdefKEY"
	const inURL = "sk-url-9876543210fedcbaURL"
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.py"), []byte("def main():\n    return 1\n"), 0o644)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{
			"message": "Incorrect API key provided: " + r.Header.Get("Authorization") + " at " + r.URL.String(),
		}})
	}))
	defer srv.Close()
	t.Setenv("FILEINFO_LLM_KEY", key)
	for _, tc := range []struct {
		name, url string
		code      int
	}{
		{"401 echoing the key", srv.URL + "/v1", 1},
		{"key in a query", srv.URL + "/v1?api_key=" + inURL, 1},
		{"key in a path", srv.URL + "/" + inURL + "/v1", 1},
		{"key in userinfo", "http://user:" + inURL + "@" + strings.TrimPrefix(srv.URL, "http://") + "/v1", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb strings.Builder
			code := run(t.Context(), []string{"enrich", "--root", root, "--all", "--llm", "openai:fake@" + tc.url}, &out, &errb)
			printed := out.String() + errb.String()
			if code != tc.code {
				t.Errorf("exit %d, want %d\n%s", code, tc.code, printed)
			}
			for _, s := range []string{key, inURL} {
				if strings.Contains(printed, s) {
					t.Errorf("printed %q:\n%s", s, printed)
				}
			}
		})
	}
}
