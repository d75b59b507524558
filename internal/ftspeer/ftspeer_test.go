package ftspeer

import (
	"context"
	"os"
	"reflect"
	"testing"
)

func TestRank(t *testing.T) {
	if !Available() {
		if os.Getenv("CI") != "" {
			t.Fatal("python3 is missing under CI")
		}
		t.Skip("python3 not found")
	}
	docs := []Doc{
		{ID: "cookie", Title: "res.cookie", Text: "Sets a cookie on the response with the given name and value."},
		{ID: "json", Title: "res.json", Text: "Sends a JSON response."},
		{ID: "router", Title: "Router", Text: "Routes requests by path and method."},
	}
	queries := []string{"how do I set cookies", "send json", `zebra " NEAR( OR`, ""}
	res, err := Rank(context.Background(), docs, queries, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"cookie"}, {"json"}, {}, {}}
	if !reflect.DeepEqual(res.IDs, want) {
		t.Errorf("IDs = %q, want %q", res.IDs, want)
	}
	if len(res.QueryTimes) != len(queries) {
		t.Errorf("%d query times for %d queries", len(res.QueryTimes), len(queries))
	}
}

func TestRankRejectsZeroK(t *testing.T) {
	if _, err := Rank(context.Background(), nil, nil, 0); err == nil {
		t.Error("k=0 accepted")
	}
}

// TestRankWeightedNames checks the columns: a name's identifier words
// are found, and a word in the name outranks the same word in a longer
// body when the name weighs more.
func TestRankWeightedNames(t *testing.T) {
	if !Available() {
		t.Skip("python3 not found")
	}
	docs := []Doc{
		{ID: "body", Title: "setup", Path: "app.py", Text: "blueprint blueprint helpers for the app registry"},
		{ID: "name", Title: "Flask.registerBlueprint", Path: "app.py", Text: "records a thing on the app"},
	}
	res, err := RankWeighted(context.Background(), docs, []string{"blueprint"}, 2, Weights{Title: 10, Path: 1, Text: 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"name", "body"}; !reflect.DeepEqual(res.IDs[0], want) {
		t.Errorf("IDs = %q, want %q", res.IDs[0], want)
	}
}
