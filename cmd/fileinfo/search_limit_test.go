package main

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/fileinfo/fileinfo/internal/server"
)

// TestSearchDefaultLimit checks that the CLI's search returns as many
// results as the search_docs tool does unless told otherwise, so a user
// sees what a model is shown.
func TestSearchDefaultLimit(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 12 {
		files[fmt.Sprintf("docs/page%02d.md", i)] = fmt.Sprintf("# Sparkline page %d\n\nThe tool renders sparkline charts, variant %d.\n", i, i)
	}
	writeFiles(t, root, files)
	for _, tc := range []struct {
		args []string
		want int
	}{
		{nil, server.DefaultSearchLimit},
		{[]string{"--limit", "8"}, 8},
	} {
		args := append([]string{"search", "--root", root, "--json", "--min-score", "0", "sparkline charts"}, tc.args...)
		code, stdout, stderr := runCLI(t, args...)
		var res struct{ Results []json.RawMessage }
		if err := json.Unmarshal([]byte(stdout), &res); code != 0 || err != nil {
			t.Fatalf("search %v: exit %d, %v: %s %s", tc.args, code, err, stdout, stderr)
		}
		if len(res.Results) != tc.want {
			t.Errorf("search %v: %d results, want %d", tc.args, len(res.Results), tc.want)
		}
	}
}
