package main

import (
	"regexp"
	"strings"
	"testing"
)

// subcommands are the modes of the commands that have them.
var subcommands = map[string][]string{
	"bench": {"extract", "search", "docs", "index", "code", "serve", "ccallers"},
}

// typeNames are what flag.PrintDefaults shows for a flag whose usage
// names no `placeholder`: its type, which says nothing of the value.
var typeNames = map[string]bool{"string": true, "value": true, "int": true, "integer": true, "uint": true,
	"float": true, "number": true, "duration": true}

// skipPlaceholders are the commands whose flags are not checked for
// placeholders: bench modes another part of the project owns.
var skipPlaceholders = map[string]bool{"bench search": true, "bench docs": true, "bench index": true,
	"bench code": true, "bench ccallers": true}

var helpFlagLine = regexp.MustCompile(`(?m)^  -([a-z0-9-]+)(?: (\S+))?`)

// TestEveryCommandHelps runs each command and subcommand with -h and
// --help: exit 0, its usage on stdout, nothing on stderr, and each flag
// that takes a value shows a placeholder, not just its type.
func TestEveryCommandHelps(t *testing.T) {
	var all [][]string
	for _, c := range commands() {
		all = append(all, []string{c.name})
		for _, sub := range subcommands[c.name] {
			all = append(all, []string{c.name, sub})
		}
	}
	all = append(all, []string{})
	for _, cmd := range all {
		name := strings.Join(cmd, " ")
		for _, h := range []string{"-h", "--help"} {
			t.Run(name+" "+h, func(t *testing.T) {
				code, stdout, stderr := runCLI(t, append(cmd[:len(cmd):len(cmd)], h)...)
				if code != 0 || stderr != "" {
					t.Fatalf("exit %d, stderr %q", code, stderr)
				}
				if !strings.HasPrefix(stdout, "usage: fileinfo "+name) {
					t.Fatalf("stdout does not start with its usage:\n%s", stdout)
				}
				if skipPlaceholders[name] {
					return
				}
				for _, m := range helpFlagLine.FindAllStringSubmatch(stdout, -1) {
					if typeNames[m[2]] {
						t.Errorf("-%s shows %q, its type, as its value: name the value in the usage with `backquotes`", m[1], m[2])
					}
				}
			})
		}
	}
}

// TestSearchHelpListsScopes: search --help names every scope.
func TestSearchHelpListsScopes(t *testing.T) {
	_, stdout, _ := runCLI(t, "search", "--help")
	for _, scope := range []string{"code", "docs", "artifacts", "deps", "deps:NAME", "--docs"} {
		if !strings.Contains(stdout, scope) {
			t.Errorf("search --help does not name scope %s:\n%s", scope, stdout)
		}
	}
}

// TestRootEitherWay: each command whose one argument is the workspace
// takes it as --root DIR or as DIR, refuses two different ones with a
// usage error naming both, and accepts the same one given twice.
func TestRootEitherWay(t *testing.T) {
	root := writeTree(t, map[string]string{"a.py": "def f():\n    g()\n\ndef g():\n    pass\n"})
	other := t.TempDir()
	for _, tc := range []struct {
		cmd  []string
		want string // in stdout of a run on root
	}{
		{[]string{"callgraph", "--format", "pycg"}, `"a.f"`},
		{[]string{"deps"}, "no dependencies"},
		{[]string{"index"}, "indexed"},
	} {
		name := tc.cmd[0]
		for _, args := range [][]string{
			append(tc.cmd[:len(tc.cmd):len(tc.cmd)], "--root", root),
			append(tc.cmd[:len(tc.cmd):len(tc.cmd)], root),
			append([]string{name, root}, tc.cmd[1:]...),
			append(tc.cmd[:len(tc.cmd):len(tc.cmd)], "--root", root, root),
		} {
			code, stdout, stderr := runCLI(t, args...)
			if code != 0 || !strings.Contains(strings.ToLower(stdout+stderr), tc.want) {
				t.Errorf("%v: exit %d, want %q in\n%s%s", args, code, tc.want, stdout, stderr)
			}
		}
		args := append(tc.cmd[:len(tc.cmd):len(tc.cmd)], "--root", root, other)
		code, _, stderr := runCLI(t, args...)
		if code != 2 || !strings.Contains(stderr, "given twice") || !strings.Contains(stderr, other) {
			t.Errorf("%v: exit %d, stderr %q; want a usage error naming both", args, code, stderr)
		}
		args = append(tc.cmd[:len(tc.cmd):len(tc.cmd)], root, other)
		if code, _, stderr := runCLI(t, args...); code != 2 || !strings.Contains(stderr, "one directory") {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
	// serve and the bench modes that take a root refuse a conflict
	// before they start anything.
	for _, cmd := range [][]string{{"serve"}, {"bench", "serve", "--file", "a.py"}, {"bench", "extract"}} {
		args := append(cmd[:len(cmd):len(cmd)], "--root", root, other)
		if code, _, stderr := runCLI(t, args...); code != 2 || !strings.Contains(stderr, "given twice") {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
	}
}
