package codeindex

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/extract"
)

// TestMinifiedRulesAgree checks that the code scope (extract.Minified)
// and the docs scope (docsearch.GeneratedReason) call the same files
// minified: real minified bundles from npm's own packages, under their
// .min.js names and renamed; a long-line data file and data with lines
// of ordinary length from Go's tree; and hand-written code nested deep
// enough that its indentation alone would pass for long lines. The
// packages import neither the other, so each writes the rule down.
func TestMinifiedRulesAgree(t *testing.T) {
	type file struct {
		name string
		data []byte
	}
	var files []file
	add := func(name string, data []byte) {
		files = append(files, file{name, data})
		if base := filepath.Base(name); strings.Contains(base, ".min.") {
			files = append(files, file{strings.Replace(name, ".min.", ".", 1), data})
		}
	}
	read := func(dir string, names ...string) {
		for _, n := range names {
			if data, err := os.ReadFile(filepath.Join(dir, n)); err == nil {
				add(n, data)
			}
		}
	}
	if out, err := exec.Command("npm", "root", "-g").Output(); err == nil {
		read(filepath.Join(strings.TrimSpace(string(out)), "npm", "node_modules"),
			"glob/dist/commonjs/index.min.js",      // 4 lines of 22 KB
			"lru-cache/dist/commonjs/index.min.js", // 2 lines, 9.6 KB
			"tar/dist/commonjs/index.min.js",
		)
	}
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		src := filepath.Join(strings.TrimSpace(string(out)), "src")
		read(src,
			"debug/macho/testdata/gcc-386-darwin-exec.base64", // one line of 16 KB of base64
			"crypto/rsa/testdata/keygen2048.txt",              // 719 lines of 252 bytes
			"go/printer/nodes.go",
		)
	}
	if len(files) < 4 {
		t.Skip("neither npm's packages nor Go's tree at hand")
	}
	// Hand-written code nested 20 levels deep (80 spaces), 250 bytes of
	// code a line: 330 bytes a line, 250 of them code.
	var nested bytes.Buffer
	for nested.Len() < 24<<10 {
		nested.WriteString(strings.Repeat("    ", 20) + "call(" + strings.Repeat("argument, ", 24) + "x)\n")
	}
	add("src/deep.js", nested.Bytes())
	add("dist/one-line.js", bytes.Repeat([]byte("var a=function(b){return b+1};"), 700))

	var yes, no int
	for _, f := range files {
		name := f.name
		if ext := filepath.Ext(name); ext != ".js" {
			name = strings.TrimSuffix(name, ext) + ".js" // the docs scope judges JavaScript, CSS and HTML
		}
		code := extract.Minified(name, f.data)
		docs := docsearch.GeneratedReason(name, f.data)
		if (code != "") != (docs != "") {
			t.Errorf("%s (%d bytes): code scope %q, docs scope %q", name, len(f.data), code, docs)
		}
		if code != "" {
			yes++
		} else {
			no++
		}
		t.Logf("%s: %d bytes: %q", name, len(f.data), code)
	}
	if yes == 0 || no == 0 {
		t.Errorf("%d files minified, %d not: the set tests one side of the rule only", yes, no)
	}
}
