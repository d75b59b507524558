package extract

// Bash (and POSIX sh) conventions.
//
// Module: the file's path without extension, '/' → '.' (scripts/ci/run.sh
// → scripts.ci.run; bin/deploy → bin.deploy).
//
// Symbols: functions only, in both syntaxes (`f() {...}`, `function f
// {...}`, any compound body). Names are kept as written (`lib::log`,
// `foo-bar`). A function defined inside another has it as parent.
// Qualified: <module>.<name>.
//
// Exported: always. Bash has no visibility: every function a script
// defines is visible to any script that sources it.
//
// Doc: the `#` comment block above the function, without a shebang line
// and shellcheck directives.
//
// Imports: `source FILE` and `. FILE`; the path is the argument as
// written, without its quotes. Resolved, to the path module of the target,
// when the path is a literal relative path (taken relative to the script's
// directory, the usual intent although the shell uses the working
// directory) or starts with the script's own directory: $(dirname "$0"),
// $(dirname "${BASH_SOURCE[0]}"), ${BASH_SOURCE%/*}, ${0%/*}.
//
// Calls: every simple command whose name is a plain word and not a shell
// builtin or keyword (echo, cd, test, read, set, local, export, source,
// ...): the script's own functions and the external programs it runs
// (grep, git, docker) — the edges a call graph wants. Commands with a
// computed name ("$cmd", ${tool}) are skipped; wrappers (sudo, env,
// xargs, nohup) are calls themselves, their argument is not unwrapped.
// Commands inside $(...), backticks, pipelines and here-documents count.
// Receiver is always "".

import (
	"path"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/bash"
)

func init() {
	register(&Language{
		Name:         "bash",
		Extensions:   []string{".sh", ".bash"},
		Interpreters: []string{"bash", "sh", "dash", "ksh"},
		grammar:      bash.GetLanguage,
		lineComments: []string{"#"},
		doc:          bashDoc,
		docOnly:      true,
		exported:     func(*decl, *fileInfo) bool { return true },
		imports:      bashImports,
		ignoreCalls:  bashBuiltins,
	})
}

// bashBuiltins are the shell builtins and keywords that are commands but
// not calls worth a graph edge.
var bashBuiltins = map[string]bool{}

func init() {
	for _, name := range strings.Fields(`echo exit test return shift printf continue set eval break exec read trap cd : true . source false [ wait let getopts type command builtin kill pwd shopt unalias alias pushd popd dirs mapfile readarray hash umask ulimit jobs bg fg disown suspend caller enable help history fc bind complete compgen compopt times logout time coproc } `) {
		bashBuiltins[name] = true
	}
}

// bashDoc is the comment block above the function without a shebang line
// or shellcheck directives.
func bashDoc(d *decl, f *fileInfo) string {
	doc := commentAbove(d, f)
	if doc == "" {
		return ""
	}
	shebang := ""
	if strings.HasPrefix(string(f.src[:min(len(f.src), 2)]), "#!") {
		line := f.src
		if i := strings.IndexByte(string(f.src[:min(len(f.src), 512)]), '\n'); i >= 0 {
			line = f.src[:i]
		}
		shebang = strings.TrimSpace(strings.TrimLeft(string(line), "#!"))
	}
	lines := strings.Split(doc, "\n")
	kept := lines[:0]
	for i, l := range lines {
		if i == 0 && shebang != "" && l == shebang || strings.HasPrefix(l, "shellcheck ") {
			continue
		}
		kept = append(kept, l)
	}
	return trimBlankLines(kept)
}

// bashImports decodes `source FILE` and `. FILE`.
func bashImports(n *sitter.Node, f *fileInfo) []Import {
	arg := n.ChildByFieldName("argument")
	if arg == nil {
		return nil
	}
	p := f.text(arg)
	if len(p) >= 2 && (p[0] == '"' || p[0] == '\'') && p[len(p)-1] == p[0] && arg.Type() != "concatenation" {
		p = p[1 : len(p)-1]
	}
	if p == "" {
		return nil
	}
	im := Import{Path: p, Names: []ImportName{}, Line: int(n.StartPoint().Row) + 1}
	if rel, ok := bashRelative(f.text(arg)); ok {
		target := path.Join(path.Dir(f.path), rel)
		if target != ".." && !strings.HasPrefix(target, "../") {
			im.Resolved = pathModule(target)
		}
	}
	return []Import{im}
}

// bashScriptDirs are the spellings of "the directory of this script",
// with quotes removed.
var bashScriptDirs = []string{
	"$(dirname $0)/", "$(dirname ${0})/", "$(dirname ${BASH_SOURCE[0]})/",
	"$(dirname $BASH_SOURCE)/", "$(dirname ${BASH_SOURCE})/",
	"${BASH_SOURCE%/*}/", "${BASH_SOURCE[0]%/*}/", "${0%/*}/",
	"`dirname $0`/",
}

// bashRelative returns the path of a sourced file relative to the
// script's directory, if the argument is a literal relative path or one
// that starts with the script's directory.
func bashRelative(arg string) (string, bool) {
	p := strings.NewReplacer(`"`, "", `'`, "").Replace(arg)
	for _, dir := range bashScriptDirs {
		if rest, ok := strings.CutPrefix(p, dir); ok {
			p = rest
			break
		}
	}
	if p == "" || strings.ContainsAny(p, "$`~*?[") || strings.HasPrefix(p, "/") {
		return "", false
	}
	return p, true
}
