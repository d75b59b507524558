package callgraph

import "testing"

// Tests stay tests (tests.go): one case per language family, each a
// production call that resolved into test code before.

func TestTestDoublesAreNoImplementers(t *testing.T) {
	g := buildArchive(t, `
-- go.mod --
module example.com/cfg
-- finder.go --
package cfg

type Finder interface{ Find(dir string) []string }

type fileFinder struct{}

func (fileFinder) Find(dir string) []string { return nil }

func Load(f Finder) { f.Find(".") }
-- finder_test.go --
package cfg

type finderStub struct{ results []string }

func (s finderStub) Find(dir string) []string { return s.results }

func TestLoad(t *testing.T) {
	Load(finderStub{})
	var f Finder = finderStub{}
	f.Find("x")
}
`)
	expectCallees(t, g, "example.com/cfg.Load", "example.com/cfg.Finder.Find:interface", "example.com/cfg.fileFinder.Find:interface")
	// Test code still sees its doubles.
	expectCallees(t, g, "example.com/cfg.TestLoad", "example.com/cfg.Load:local",
		"example.com/cfg.Finder.Find:interface", "example.com/cfg.fileFinder.Find:interface", "example.com/cfg.finderStub.Find:interface")
}

func TestTestCodeIsNoPythonCallee(t *testing.T) {
	g := buildArchive(t, `
-- app/core.py --
from tests.helpers import make_config

def run(job):
    job.execute()
    job.render()
    return make_config()

class Report:
    def render(self):
        pass
-- tests/helpers.py --
def make_config():
    return {}
-- tests/test_core.py --
from app.core import run

class FakeJob:
    def execute(self):
        pass
    def render(self):
        pass

def test_run():
    run(FakeJob())
    FakeJob().execute()
`)
	// job is a FakeJob only because a test passes one (flow tracking):
	// production code calls no test double; make_config is imported, so
	// it stays.
	expectCallees(t, g, "app.core.run", "tests.helpers.make_config:import")
	expectUnresolved(t, g, "app.core.run", "execute", "defined only in test code: tests.test_core.FakeJob.execute")
	expectUnresolved(t, g, "app.core.run", "render", "defined only in test code: tests.test_core.FakeJob.render")
	expectCallees(t, g, "tests.test_core.test_run", "app.core.run:import", "tests.test_core.FakeJob:constructor", "tests.test_core.FakeJob.execute:receiver")
}

func TestTestCodeIsNoJavaScriptCallee(t *testing.T) {
	g := buildArchive(t, `
-- src/sync.js --
export function syncAll(client) {
  return client.fetchEverything();
}
-- src/__tests__/sync.test.js --
import { syncAll } from "../sync";

class MockClient {
  fetchEverything() { return []; }
}

test("sync", () => syncAll(new MockClient()));
`)
	expectCallees(t, g, "src.sync.syncAll")
	expectUnresolved(t, g, "src.sync.syncAll", "fetchEverything", "defined only in test code")
}

func TestTestCodeIsNoRustCallee(t *testing.T) {
	g := buildArchive(t, `
-- Cargo.toml --
[package]
name = "p"
-- src/lib.rs --
pub fn check(item: &dyn Validate) -> bool {
    item.validate_strictly()
}

pub trait Validate {}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fake;

    impl Fake {
        fn validate_strictly(&self) -> bool { true }
    }

    #[test]
    fn checks() {
        Fake.validate_strictly();
    }
}
`)
	expectCallees(t, g, "p.check")
	// The receiver's type is known: its trait has no such method.
	expectUnresolved(t, g, "p.check", "validate_strictly", "no method validate_strictly on Validate")
}

func TestTestCodeIsNoJavaCallee(t *testing.T) {
	g := buildArchive(t, `
-- src/main/java/app/Service.java --
package app;

public class Service {
    public void start(Object engine) {
        ((Engine) engine).warmUpEverything();
    }
}
-- src/test/java/app/FakeEngine.java --
package app;

public class FakeEngine {
    public void warmUpEverything() {}
}
`)
	expectCallees(t, g, "app.Service.start")
}

// TestTestDoublesOfTheSamePackage: an internal test's double (package
// cfg, in a _test.go file) is no implementer for production code that
// imports another package of its module (viper's codec in
// encoding_test.go, called from viper.go, which imports viper/internal/...).
func TestTestDoublesOfTheSamePackage(t *testing.T) {
	g := buildArchive(t, `
-- go.mod --
module example.com/cfg
-- cfg.go --
package cfg

import "example.com/cfg/internal/yaml"

type Decoder interface{ Decode(b []byte) error }

func Read(d Decoder) error {
	yaml.Check()
	return d.Decode(nil)
}
-- internal/yaml/yaml.go --
package yaml

func Check() {}
-- codec_test.go --
package cfg

type codec struct{}

func (codec) Decode(b []byte) error { return nil }
`)
	expectCallees(t, g, "example.com/cfg.Read", "example.com/cfg/internal/yaml.Check:import", "example.com/cfg.Decoder.Decode:interface")
}
