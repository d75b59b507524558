package enrich

import (
	"slices"
	"strings"
	"testing"
)

func TestRenderEnrichedRefusesUnknownNames(t *testing.T) {
	r := loadArchive(t, "repo.txtar")
	f, _ := r.file(t, "shop/store.py")
	rep := valid()
	rep.Classes[0].Methods[0].Name = "put"
	md, err := RenderEnriched(f, r.graph, rep, Digests{})
	if err == nil || md != nil || !strings.Contains(err.Error(), `method "put" not in class Store`) {
		t.Fatalf("got %q, %v", md, err)
	}
	// A report without an overview (parts 2 and later) still renders.
	rep = valid()
	rep.Overview = ""
	md, err = RenderEnriched(f, r.graph, rep, Digests{})
	if err != nil || !strings.Contains(string(md), "*No overview yet") {
		t.Fatalf("got %v\n%s", err, md)
	}
}

func TestStepsOf(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"1. Open.\n2. Read.\n\n3. Close.", []string{"Open.", "Read.", "Close."}},
		{"- a\n* b\n• c", []string{"a", "b", "c"}},
		{"1. Raise if negative. 2. Store it.", []string{"Raise if negative.", "Store it."}},
		{"1) a 2) b 3) c", []string{"a", "b", "c"}},
		{"Sum 2. items", []string{"Sum 2. items"}},
		{"Return 1. Then 3. more", []string{"Return 1. Then 3. more"}},
		{"  ", nil},
	} {
		if got := stepsOf(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("stepsOf(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestBlockKeepsLayout(t *testing.T) {
	in := "First line.\n# Heading\n  ## Sub\n===\n- - -\n```go\ncode\n```\nLast."
	want := "First line.\n\\# Heading\n\\## Sub\n\\===\n\\- - -\n\\```go\ncode\n\\```\nLast."
	if got := block(in); got != want {
		t.Errorf("block:\n%s\nwant\n%s", got, want)
	}
}
