package enrich

import (
	"strings"
	"testing"
)

func TestParseAnswer(t *testing.T) {
	for _, tc := range []struct {
		name, text, overview, err string
	}{
		{"bare", `{"path":"a.go","overview":"O.","functions":[]}`, "O.", ""},
		{"fenced with prose", "Here it is:\n```json\n{\"path\":\"a.go\",\"overview\":\"Fenced.\",\"functions\":[{\"name\":\"F\",\"purpose\":\"p\",\"implementation\":[\"a\",\"b\"]}]}\n```\nDone.", "Fenced.", ""},
		{"no json", "I cannot do that.", "", "no JSON object"},
		{"broken", `{"path": "a.go", "overview": `, "", "does not parse"},
		{"wrong shape", `{"functions": "F"}`, "", "not a report"},
		{"huge", `{"overview":"` + strings.Repeat("x", MaxReportSize) + `"}`, "", "refused"},
	} {
		r, err := ParseAnswer(tc.text)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: got %v, %v; want an error saying %q", tc.name, r, err, tc.err)
			}
			continue
		}
		if err != nil || r.Overview != tc.overview {
			t.Errorf("%s: got %+v, %v", tc.name, r, err)
		}
	}
}

func FuzzParseAnswer(f *testing.F) {
	f.Add(`{"path":"a.go","overview":"O.","functions":[{"name":"F","purpose":"p","implementation":"1. x"}]}`)
	f.Add("```json\n{\"functions\": [{\"implementation\": [\"a\"]}]}\n```")
	f.Add("{")
	f.Fuzz(func(t *testing.T, text string) {
		r, err := ParseAnswer(text)
		if err == nil && r == nil {
			t.Fatal("nil report without an error")
		}
	})
}

func TestPurposesReachCallersPrompts(t *testing.T) {
	r := loadArchive(t, "repo.txtar")
	pricing, _ := r.file(t, "shop/pricing.py")
	rep := &Report{Path: "shop/pricing.py", Overview: "o", Functions: []Function{
		{Name: "discount", Purpose: "Takes a percentage off a price.", Implementation: "1. x"},
		{Name: "nonexistent", Purpose: "ignored"},
	}}
	purposes := Purposes(rep, pricing)
	if len(purposes) != 1 || purposes["shop.pricing.discount"] != "Takes a percentage off a price." {
		t.Fatalf("Purposes = %v", purposes)
	}
	store, src := r.file(t, "shop/store.py")
	p, err := NewBuilder().Prompt(store, r.graph, src, Options{Purposes: purposes})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Text, "`discount` (shop/pricing.py:4): Takes a percentage off a price.") {
		t.Errorf("the caller's prompt does not show the callee's purpose:\n%s", p.Text)
	}
}
