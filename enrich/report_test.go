package enrich

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/extract"
)

// expectInvalid checks that Validate refuses r with an error containing
// each of want.
func expectInvalid(t *testing.T, r *Report, want ...string) {
	t.Helper()
	f := storeFile(t)
	err := Validate(r, f, nil)
	if err == nil {
		t.Fatalf("Validate accepted %+v", r)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not contain %q", err, w)
		}
	}
}

var storeRepo *repo

// storeFile is shop/store.py of the golden archive, extracted once.
func storeFile(t testing.TB) *extract.File {
	t.Helper()
	if storeRepo == nil {
		storeRepo = loadArchive(t, "repo.txtar")
	}
	f, _ := storeRepo.file(t, "shop/store.py")
	return f
}

func valid() *Report {
	return &Report{
		Path:     "shop/store.py",
		Overview: "A store.",
		Functions: []Function{
			{Name: "load", Purpose: "Loads.", Implementation: "1. Read.\n2. Build."},
		},
		Classes: []Class{{Name: "Store", Purpose: "Holds.", Methods: []Function{
			{Name: "get", Purpose: "Gets.", Implementation: "Look up."},
		}}},
	}
}

func TestValidateAccepts(t *testing.T) {
	f := storeFile(t)
	for name, edit := range map[string]func(r *Report){
		"as listed":               func(r *Report) {},
		"qualified name":          func(r *Report) { r.Functions[0].Name = "shop.store.load" },
		"dressed name":            func(r *Report) { r.Functions[0].Name = "`load()`" },
		"method as function":      func(r *Report) { r.Functions = append(r.Functions, Function{Name: "Store.total", Purpose: "Sums."}) },
		"method by local name":    func(r *Report) { r.Classes[0].Methods[0].Name = "Store.get" },
		"unique simple name":      func(r *Report) { r.Functions[0].Name = "total" },
		"nested class":            func(r *Report) { r.Classes = append(r.Classes, Class{Name: "Error", Purpose: "Raised."}) },
		"path with ./":            func(r *Report) { r.Path = "./shop/store.py" },
		"later part, no overview": func(r *Report) { r.Overview, r.Part = "", 2 },
		"no functions":            func(r *Report) { r.Functions = nil },
	} {
		t.Run(name, func(t *testing.T) {
			r := valid()
			edit(r)
			if err := Validate(r, f, nil); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestValidateRefuses(t *testing.T) {
	known := "known: Store.__init__, Store.add, Store.get, Store.total, load"
	t.Run("unknown function", func(t *testing.T) {
		r := valid()
		r.Functions[0].Name = "Foo"
		expectInvalid(t, r, `symbol "Foo" not in shop/store.py; `+known)
	})
	t.Run("unknown functions grouped", func(t *testing.T) {
		r := valid()
		r.Functions = append(r.Functions, Function{Name: "Foo"}, Function{Name: "Bar"})
		expectInvalid(t, r, `symbols "Foo", "Bar" not in shop/store.py; `+known)
	})
	t.Run("unknown class", func(t *testing.T) {
		r := valid()
		r.Classes[0].Name = "Shop"
		expectInvalid(t, r, `class "Shop" not in shop/store.py; known: Store, Store.Error`)
	})
	t.Run("unknown method", func(t *testing.T) {
		r := valid()
		r.Classes[0].Methods[0].Name = "put"
		expectInvalid(t, r, `method "put" not in class Store of shop/store.py; its methods: __init__, add, get, total`)
	})
	t.Run("method of a class without methods", func(t *testing.T) {
		r := valid()
		r.Classes = append(r.Classes, Class{Name: "Store.Error", Methods: []Function{{Name: "get"}}})
		expectInvalid(t, r, `method "get" not in class Store.Error of shop/store.py; it has none`)
	})
	t.Run("type in functions", func(t *testing.T) {
		r := valid()
		r.Functions[0].Name = "Store"
		expectInvalid(t, r, `"Store" in functions is a type of shop/store.py: put it in classes`)
	})
	t.Run("function in classes", func(t *testing.T) {
		r := valid()
		r.Classes[0].Name = "load"
		expectInvalid(t, r, `"load" in classes is a function of shop/store.py: put it in functions`)
	})
	t.Run("empty names", func(t *testing.T) {
		r := valid()
		r.Functions[0].Name = " "
		r.Classes[0].Methods[0].Name = ""
		expectInvalid(t, r, "functions[0] has no name", "classes[0].methods[0] has no name")
	})
	t.Run("empty overview", func(t *testing.T) {
		r := valid()
		r.Overview = " \n"
		expectInvalid(t, r, "overview is empty")
	})
	t.Run("empty overview in part 1", func(t *testing.T) {
		r := valid()
		r.Overview, r.Part = "", 1
		expectInvalid(t, r, "overview is empty")
	})
	t.Run("wrong path", func(t *testing.T) {
		r := valid()
		r.Path = "shop/cli.py"
		expectInvalid(t, r, `report is for "shop/cli.py" but the file is "shop/store.py"`)
	})
	t.Run("negative part", func(t *testing.T) {
		r := valid()
		r.Part = -1
		expectInvalid(t, r, "part -1")
	})
	t.Run("oversized", func(t *testing.T) {
		r := valid()
		r.Overview = strings.Repeat("x", MaxReportSize)
		expectInvalid(t, r, "the limit is 262144")
	})
	t.Run("every problem at once", func(t *testing.T) {
		r := valid()
		r.Path, r.Overview = "a.py", ""
		r.Functions[0].Name = "Foo"
		expectInvalid(t, r, "report is for", "overview is empty", `symbol "Foo"`)
	})
}

func TestValidateOddPaths(t *testing.T) {
	// Names a file system allows, which a report must be able to name.
	for _, p := range []string{` lead.py`, `back\slash.py`, `-dash.py`, `ünï/😀.py`, `a#b.py`, `a%41.py`, `trail .py`, "end.py ", "tab\there.py", "\tlead-tab.py"} {
		t.Run(p, func(t *testing.T) {
			f := *storeFile(t)
			f.Path = p
			r := valid()
			r.Path = p
			if err := Validate(r, &f, nil); err != nil {
				t.Error(err)
			}
		})
	}
	// The forgiving forms still name an ordinary path.
	for _, p := range []string{" shop/store.py ", `shop\store.py`, "./shop//store.py"} {
		r := valid()
		r.Path = p
		if err := Validate(r, storeFile(t), nil); err != nil {
			t.Errorf("%q: %v", p, err)
		}
	}
}

func TestValidateAmbiguous(t *testing.T) {
	f := storeFile(t)
	g := *f
	g.Symbols = append(slices.Clone(f.Symbols), g.Symbols[len(g.Symbols)-1])
	g.Symbols[len(g.Symbols)-1].Qualified = "shop.store.Other.get"
	g.Symbols[len(g.Symbols)-1].Name = "get"
	r := valid()
	r.Functions[0].Name = "get"
	err := Validate(r, &g, nil)
	if err == nil || !strings.Contains(err.Error(), `symbol "get" is ambiguous in shop/store.py: Store.get, Other.get`) {
		t.Fatalf("got %v", err)
	}
}

func TestUndocumented(t *testing.T) {
	f := storeFile(t)
	r := valid()
	got := Undocumented(r, f)
	// Store.Error is a type without a purpose: not documented either.
	want := []string{"Store.Error", "Store.__init__", "Store.add", "Store.total"}
	if !slices.Equal(got, want) {
		t.Errorf("Undocumented = %v, want %v", got, want)
	}
	r.Classes[0].Methods = append(r.Classes[0].Methods,
		Function{Name: "__init__", Purpose: "Makes."},                        // no implementation
		Function{Name: "add", Purpose: "Adds.", Implementation: "1. Store."}, // documented
		Function{Name: "nope", Purpose: "Ignored."},                          // unknown: ignored
	)
	r.Classes = append(r.Classes, Class{Name: "Store.Error", Purpose: "Raised."})
	if got, want := Undocumented(r, f), []string{"Store.__init__", "Store.total"}; !slices.Equal(got, want) {
		t.Errorf("Undocumented = %v, want %v", got, want)
	}
}

func TestImplementationForms(t *testing.T) {
	for _, tc := range []struct {
		json string
		want string
	}{
		{`{"name":"f","purpose":"p","implementation":"1. a\n2. b"}`, "1. a\n2. b"},
		{`{"name":"f","purpose":"p","implementation":["a","b"]}`, "a\nb"},
		{`{"name":"f","purpose":"p"}`, ""},
		{`{"name":"f","purpose":"p","implementation":null}`, ""},
	} {
		var fn Function
		if err := json.Unmarshal([]byte(tc.json), &fn); err != nil {
			t.Errorf("%s: %v", tc.json, err)
			continue
		}
		if fn.Implementation != tc.want || fn.Name != "f" || fn.Purpose != "p" {
			t.Errorf("%s: got %+v", tc.json, fn)
		}
	}
	var fn Function
	if err := json.Unmarshal([]byte(`{"name":"f","implementation":3}`), &fn); err == nil || !strings.Contains(err.Error(), "a string or a list of strings") {
		t.Errorf("a number as implementation: %v", err)
	}
}

func TestNilReport(t *testing.T) {
	f := storeFile(t)
	if err := Validate(nil, f, nil); err == nil {
		t.Error("Validate(nil) passed")
	}
	if got := Undocumented(nil, f); len(got) != 7 { // 5 functions and methods, 2 types
		t.Errorf("Undocumented(nil) = %v", got)
	}
	if md, err := RenderEnriched(f, nil, nil, Digests{}); err != nil || !strings.Contains(string(md), "Structure only") {
		t.Errorf("RenderEnriched(nil) = %v\n%s", err, md)
	}
}
