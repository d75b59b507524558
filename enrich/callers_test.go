package enrich

import (
	"slices"
	"testing"
)

func TestCallerKeys(t *testing.T) {
	r := loadArchive(t, "repo.txtar")
	f, _ := r.file(t, "shop/pricing.py")
	got := CallerKeys(f, r.graph)
	want := []string{
		"shop.store.Store.total (shop/store.py) -> discount",
		"shop.store.Store.total (shop/store.py) -> with_tax",
	}
	if !slices.Equal(got, want) {
		t.Errorf("CallerKeys(shop/pricing.py) = %q, want %q", got, want)
	}
	if keys := CallerKeys(f, nil); keys != nil {
		t.Errorf("CallerKeys without a graph = %q, want none", keys)
	}
}
