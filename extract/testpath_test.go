package extract

import "testing"

func TestIsTestPath(t *testing.T) {
	for p, want := range map[string]bool{
		"finder_test.go":                      true,
		"finder.go":                           false,
		"pkg/test_core.py":                    true,
		"pkg/core_test.py":                    true,
		"conftest.py":                         true,
		"pkg/testing.py":                      false,
		"src/__tests__/sync.js":               true,
		"src/sync.test.ts":                    true,
		"src/sync.spec.tsx":                   true,
		"src/latest.js":                       false,
		"tests/integration.rs":                true,
		"src/main/java/app/A.java":            false,
		"src/test/java/app/ATest.java":        true,
		"spec/models/user_spec.rb":            true,
		"lib/user_spec.rb":                    true,
		"go/types/testdata/check/x.go":        true,
		"internal/testenv/testenv.go":         false,
		"contest/main.go":                     false,
		"attest.py":                           false,
		"app/tests.py":                        true,
		"src/main/java/app/Latest.java":       false,
		"src/main/kotlin/Contest.kt":          false,
		"core/ParserTest.java":                true,
		"Sources/Router/Router.swift":         false,
		"Tests/RouterTests/RouterTests.swift": true,
		"src/Foo/Bar.cs":                      false,
		"src/Foo.Tests/BarTests.cs":           true,
		"src/Foo.IntegrationTests/Db.cs":      true,
		"src/Foo.Testing/Fakes.cs":            false,
		"Symfony/Component/HttpFoundation/Tests/RequestTest.php": true,
		"src/Symfony/Component/HttpFoundation/Request.php":       false,
		"lib/src/commonTest/kotlin/ParserCases.kt":               true,
		"app/src/androidTest/java/MainScreen.kt":                 true,
		"lib/src/testFixtures/java/FakeClock.java":               true,
		"lib/src/commonMain/kotlin/Parser.kt":                    false,
		"src/testing/Contest.scala":                              false,
		"web/e2e/login.ts":                                       true,
		"v1.2/core.go":                                           false,
		"lib/test_bitmap.c":                                      true,
		"lib/test-kstrtox.c":                                     true,
		"lib/list-test.c":                                        true,
		"lib/bitfield_kunit.c":                                   true,
		"net/ethtool/cabletest.c":                                false,
		"drivers/net/ethernet/sfc/selftest.c":                    false,
		"drivers/gpu/drm/i915/selftests/mock_gem_device.c":       true,
		"base/strings/string_util_unittest.cc":                   true,
		"src/parser_test.ts":                                     true,
		"spec/parser_spec.lua":                                   true,
		"scripts/test-env.sh":                                    false,
		"lib/contest_results.py":                                 false,
		"test_":                                                  false,
		"_test.go":                                               false,
		"pkg/clock/fake_clock.go":                                true,
		"store/mock_store.go":                                    true,
		"store/store_mock.go":                                    true,
		"internal/mocks/client.go":                               true,
		"pkg/testutil/server.go":                                 true,
		"pkg/clock/clock.go":                                     false,
		"github.com/stretchr/testify/mock/mock.go":               false,
		"mockery/cmd/mockery.go":                                 false,
		"tools/fakeroot.c":                                       false,
		"kubernetes/typed/core/v1/fake/fake_pod.go":              true,
		"kubernetes/fake/clientset.go":                           true,
		"test2/app.e2e-spec.ts":                                  true,
		"src/components/Button.cy.tsx":                           true,
		"src/login.e2e.ts":                                       true,
		"src/fancy.cyan.ts":                                      false,
		"src/openapi-spec.ts":                                    false,
	} {
		if got := IsTestPath(p); got != want {
			t.Errorf("IsTestPath(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestRustTestOnly marks what #[cfg(test)] and #[test] compile only for
// tests, and what they enclose; a file under tests/ is test code whole.
func TestRustTestOnly(t *testing.T) {
	f := extractString(t, "src/lib.rs", `
pub fn parse() -> u32 { 1 }

#[cfg(test)]
mod tests {
    struct Fake;
    impl Fake { fn run(&self) {} }
    #[test]
    fn parses() {}
}

#[cfg(all(test, feature = "slow"))]
fn slow_helper() {}

#[cfg(not(test))]
fn not_in_tests() {}

#[tokio::test]
async fn async_case() {}
`)
	want := map[string]bool{
		"crate.parse": false, "crate.tests": true, "crate.tests.Fake": true, "crate.tests.Fake.run": true,
		"crate.tests.parses": true, "crate.slow_helper": true, "crate.not_in_tests": false, "crate.async_case": true,
	}
	for q, w := range want {
		if got := symbol(t, f, q).Test; got != w {
			t.Errorf("%s: Test %v, want %v", q, got, w)
		}
	}
	if f.Test {
		t.Errorf("src/lib.rs: File.Test true")
	}
	if g := extractString(t, "tests/cli.rs", "fn helper() {}\n"); !g.Test || !g.Symbols[0].Test {
		t.Errorf("tests/cli.rs: File.Test %v, Symbol.Test %v; want both true", g.Test, g.Symbols[0].Test)
	}
}

// FuzzIsTestPath: any path is classified without a panic.
func FuzzIsTestPath(f *testing.F) {
	for _, p := range []string{"", "/", "a/Test", "x.Tests/", "androidTest/A.kt", "Test.java", "t/.", "é/Tests.cs"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		IsTestPath(p)
	})
}
