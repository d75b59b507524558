package callgraph

// pytest fixtures: a test function's parameter named like a fixture
// holds what the fixture returns (or yields). pytest looks a fixture up
// in the test's module, then in the conftest.py files of its directory
// and the directories above; so does fixtures. `def test_x(app):
// app.register_blueprint(bp)` with a fixture `app` that returns
// Flask(...) calls Flask.register_blueprint.

import (
	"path"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// fixtureUse is one parameter that pytest fills with a fixture's value.
type fixtureUse struct {
	param   varKey
	fixture SymbolID
}

// fixtureUses finds the parameters of test functions and fixtures in
// test modules and conftest.py files that name a fixture.
func (fl *flow) fixtureUses(files []*extract.File) []fixtureUse {
	r := fl.r
	type key struct{ where, name string } // where: a file path, or a directory for conftest.py
	fixtures := map[key]SymbolID{}
	isFixture := map[SymbolID]bool{}
	for _, f := range files {
		if !isTestFile(f.Path) {
			continue
		}
		for _, b := range f.Bindings {
			dec, ok := strings.CutPrefix(b.Value, "@")
			if !ok {
				continue
			}
			dec, _, _ = strings.Cut(dec, "(")
			if lastSegment(dec) != "fixture" {
				continue
			}
			for _, id := range r.g.byQualified[joinQ(b.Scope, b.Target)] {
				if r.g.nodes[id].File != f.Path {
					continue
				}
				isFixture[id] = true
				where := f.Path
				if path.Base(f.Path) == "conftest.py" {
					where = path.Dir(f.Path)
				}
				if _, dup := fixtures[key{where, b.Target}]; !dup {
					fixtures[key{where, b.Target}] = id
				}
			}
		}
	}
	if len(fixtures) == 0 {
		return nil
	}
	var uses []fixtureUse
	for _, f := range files {
		if !isTestFile(f.Path) {
			continue
		}
		for _, id := range r.g.byFile[f.Path] {
			n := r.g.nodes[id]
			if !strings.HasPrefix(n.Name, "test") && !isFixture[id] {
				continue
			}
			for _, p := range fl.params[id] {
				fx, ok := fixtures[key{f.Path, p}]
				for dir := path.Dir(f.Path); !ok; dir = path.Dir(dir) {
					fx, ok = fixtures[key{dir, p}]
					if dir == "." || dir == "/" {
						break
					}
				}
				if ok && fx != id {
					uses = append(uses, fixtureUse{varKey{n.Qualified, p}, fx})
				}
			}
		}
	}
	return uses
}

// isTestFile reports whether pytest collects fixtures or tests from the
// file: conftest.py, test_*.py, *_test.py.
func isTestFile(p string) bool {
	base := path.Base(p)
	return base == "conftest.py" || strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".py") || strings.HasSuffix(base, "_test.py")
}

// passFixtures gives each fixture parameter the fixture's value.
func (fl *flow) passFixtures(uses []fixtureUse) {
	for _, u := range uses {
		fl.add(u.param, fl.callResult(valueSet{value{u.fixture, false}: true}))
	}
}
