package extract

import "testing"

func TestBashSymbols(t *testing.T) {
	f := extractString(t, "scripts/ci/run.sh", `#!/bin/bash
# Builds things.
build() {
  make all
}

function test_all {
  go test ./...
}

function lint() (
  golangci-lint run
)

outer() {
  inner() { echo nested; }
  inner
}

lib::log() { printf '%s\n' "$*"; }
is_ready() [[ -f /tmp/ready ]]
`)
	if f.Module != "scripts.ci.run" {
		t.Errorf("module = %q, want scripts.ci.run", f.Module)
	}
	expectSymbols(t, f,
		"function scripts.ci.run.build parent= line=3-5",
		"function scripts.ci.run.test_all parent= line=7-9",
		"function scripts.ci.run.lint parent= line=11-13",
		"function scripts.ci.run.outer parent= line=15-18",
		"function scripts.ci.run.outer.inner parent=outer line=16-16",
		"function scripts.ci.run.lib::log parent= line=20-20",
		"function scripts.ci.run.is_ready parent= line=21-21",
	)
	expectSignatures(t, f, map[string]string{
		"scripts.ci.run.build":    "build()",
		"scripts.ci.run.test_all": "function test_all",
		"scripts.ci.run.lint":     "function lint()",
		"scripts.ci.run.is_ready": "is_ready()",
	})
	for _, s := range f.Symbols {
		if !s.Exported {
			t.Errorf("%s not exported; every bash function is", s.Qualified)
		}
	}
}

func TestBashDocs(t *testing.T) {
	f := extractString(t, "docs.sh", `#!/usr/bin/env bash
# first() is right under the shebang.
first() { :; }

# shellcheck disable=SC2034
# Second has a directive above its doc.
second() { :; }

# Detached.

third() { :; }
`)
	for q, want := range map[string]string{
		"docs.first":  "first() is right under the shebang.",
		"docs.second": "Second has a directive above its doc.",
		"docs.third":  "",
	} {
		if got := symbol(t, f, q).Doc; got != want {
			t.Errorf("doc of %s = %q, want %q", q, got, want)
		}
	}
}

// A directive or shebang alone above a function is not its doc.
func TestBashDirectiveIsNotDoc(t *testing.T) {
	f := extractString(t, "dir.sh", "#!/bin/sh\nfirst() { a; }\n\n# shellcheck disable=SC2086\nsecond() { b; }\n")
	for _, q := range []string{"dir.first", "dir.second"} {
		if d := symbol(t, f, q).Doc; d != "" {
			t.Errorf("doc of %s = %q, want none", q, d)
		}
	}
	expectCalls(t, f, "dir.first -> a @2", "dir.second -> b @5")
}

func TestBashImports(t *testing.T) {
	f := extractString(t, "tools/release.sh", `source ./lib/common.sh
. "lib/paths.bash"
source "$(dirname "$0")/helpers.sh"
source "$(dirname "${BASH_SOURCE[0]}")/../env.sh"
. "${BASH_SOURCE%/*}/more.sh" arg1
source "$HOME/.profile"
source /etc/os-release
source ../../../escape.sh
echo source not_an_import
`)
	expectImports(t, f,
		"./lib/common.sh => tools.lib.common @1",
		"lib/paths.bash => tools.lib.paths @2",
		`$(dirname "$0")/helpers.sh => tools.helpers @3`,
		`$(dirname "${BASH_SOURCE[0]}")/../env.sh => env @4`,
		"${BASH_SOURCE%/*}/more.sh => tools.more @5",
		"$HOME/.profile @6",
		"/etc/os-release @7",
		"../../../escape.sh @8",
	)
}

func TestBashCalls(t *testing.T) {
	f := extractString(t, "calls.sh", `set -e
source ./lib.sh
log() { echo "$@" >&2; }

deploy() {
  local tag
  tag=$(git rev-parse HEAD)
  log "deploying $tag"
  docker build . | tee build.log
  if ! kubectl apply -f k8s/; then
    rollback "$tag" || exit 1
  fi
  for f in *.tmp; do rm -f "$f"; done
  cat <<EOF
built by $(whoami) at $(date)
EOF
  "$HOOK" arg
  ${RUNNER} arg
  FOO=1 env_cmd
  [ -f x ] && test -d y && cd /tmp && pwd
  printf '%s\n' done
  return 0
}

deploy "$@"
`)
	expectCalls(t, f,
		"calls.deploy -> git @7",
		"calls.deploy -> log @8",
		"calls.deploy -> docker @9",
		"calls.deploy -> tee @9",
		"calls.deploy -> kubectl @10",
		"calls.deploy -> rollback @11",
		"calls.deploy -> rm @13",
		"calls.deploy -> cat @14",
		"calls.deploy -> whoami @15",
		"calls.deploy -> date @15",
		"calls.deploy -> env_cmd @19",
		"calls -> deploy @25",
	)
}

func TestBashSyntaxError(t *testing.T) {
	f := extractString(t, "broken.sh", `good() {
  run_it
}

bad() {
  if [ x; then
}

after() { :; }
`)
	if len(f.Errors) == 0 {
		t.Fatal("no syntax errors reported")
	}
	if s := symbol(t, f, "broken.good"); s.StartLine != 1 || s.EndLine != 3 {
		t.Errorf("good = %s", symbolLine(s))
	}
}

func TestBashLanguageOf(t *testing.T) {
	for _, tc := range []struct{ path, head string }{
		{"a.sh", ""}, {"b.bash", ""}, {"bin/deploy", "#!/bin/bash\n"},
		{"bin/posix", "#!/bin/sh\n"}, {"bin/env", "#!/usr/bin/env bash\n"},
		{"hooks/pre-commit", "#!/usr/bin/env sh\n"},
	} {
		if l := LanguageOf(tc.path, []byte(tc.head)); l == nil || l.Name != "bash" {
			t.Errorf("LanguageOf(%q) = %v, want bash", tc.path, l)
		}
	}
}
