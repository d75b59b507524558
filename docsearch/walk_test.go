package docsearch

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// sphinxWorkspace is laid out as SQLAlchemy's repository is: its Sphinx
// sources in doc/build (conf.py, index.rst, a directory per part), the
// HTML built from them in doc/build/output, which .gitignore names. Beside
// them, the build outputs that a directory named build, dist or target
// usually holds: Sphinx HTML with its _sources copies, a JavaScript
// bundle whose README was copied in (git-ignored), a Rust target
// directory.
var sphinxWorkspace = map[string]string{
	".gitignore":                             "*.pyc\n/doc/build/output/\ndist/\n",
	"README.rst":                             "SQLAlchemy\n==========\n\nThe Python SQL toolkit and object relational mapper.\n",
	"doc/build/conf.py":                      "project = 'SQLAlchemy'\nextensions = ['sphinx.ext.autodoc']\n",
	"doc/build/Makefile":                     "html:\n\tsphinx-build -b html . output/html\n",
	"doc/build/requirements.txt":             "sphinx\n",
	"doc/build/index.rst":                    "SQLAlchemy Documentation\n========================\n\n.. toctree::\n\n   orm/index\n   core/index\n",
	"doc/build/glossary.rst":                 "Glossary\n========\n\nunit of work\n    A pattern where the session tracks changes to objects.\n",
	"doc/build/orm/index.rst":                "ORM\n===\n\n.. toctree::\n\n   session_basics\n",
	"doc/build/orm/session_basics.rst":       "Session Basics\n==============\n\nThe Session autoflush feature flushes pending changes before each query.\n",
	"doc/build/core/connections.rst":         "Working with Engines and Connections\n====================================\n\nThe Engine maintains a connection pool.\n",
	"doc/build/changelog/changelog_20.rst":   "2.0 Changelog\n=============\n\nThe quokka dialect was added.\n",
	"doc/build/output/html/index.html":       "<html><body><main><h1>SQLAlchemy</h1><p>autoflush generated page</p></main></body></html>",
	"docs/build/html/index.html":             "<html><body><main><h1>Other</h1><p>generated wombat page</p></main></body></html>",
	"docs/build/html/_sources/index.rst.txt": "Other\n=====\n\ngenerated wombat page\n",
	"docs/build/doctrees/index.doctree":      "binary",
	"docs/source/index.rst":                  "Other\n=====\n\nThe wombat source page.\n",
	"dist/README.md":                         "# Bundle\n\ncopied numbat readme\n",
	"dist/bundle.js":                         "console.log(1)\n",
	"target/CACHEDIR.TAG":                    "Signature: 8a477f597d28d172789f06886806bc55\n",
	"target/doc/crate/index.html":            "<html><body><main><h1>crate</h1><p>rustdoc echidna</p></main></body></html>",
	"target/package/crate-0.1.0/README.md":   "# crate\n\npackaged echidna readme\n",
	"node_modules/x/README.md":               "# Dependency\n\nnot indexed\n",
	"tools/build/README.md":                  "# Build scripts\n\nHow the release platypus is built.\n",
	"_site/about/index.html":                 "<html><body><main><h1>About</h1><p>jekyll built koala page</p></main></body></html>",
	"site/content/guide.md":                  "# Guide\n\nThe bilby guide, a Hugo site's source.\n",
	"src/main.py":                            "print('hi')\n",
}

// TestBuildDirsIndexedWhenDocs checks that a directory named like build
// output is indexed when it holds documentation sources (SQLAlchemy's
// doc/build), passed over when git-ignored or holding no document of its
// own, and that every directory passed over is listed with a reason.
func TestBuildDirsIndexedWhenDocs(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, sphinxWorkspace)
	for _, confined := range []bool{false, true} {
		t.Run(map[bool]string{false: "DirFS", true: "RootFS"}[confined], func(t *testing.T) {
			var ix *Index
			if confined {
				r, err := os.OpenRoot(root)
				if err != nil {
					t.Fatal(err)
				}
				defer r.Close()
				ix = openTest(t, RootFS(r), Options{})
			} else {
				ix = openTest(t, os.DirFS(root), Options{})
			}
			docs, _ := ix.List(ScopeDocs)
			want := []string{
				"README.rst",
				"doc/build/changelog/changelog_20.rst", "doc/build/core/connections.rst",
				"doc/build/glossary.rst", "doc/build/index.rst",
				"doc/build/orm/index.rst", "doc/build/orm/session_basics.rst",
				"docs/source/index.rst", "site/content/guide.md", "tools/build/README.md",
			}
			if got := paths(docs); !slices.Equal(got, want) {
				t.Errorf("docs = %v\nwant %v", got, want)
			}
			expectTop(t, ix, "autoflush", "doc/build/orm/session_basics.rst")
			reasons := map[string]string{
				"doc/build/output/": "git-ignored",
				"dist/":             "git-ignored",
				"docs/build/":       "build output",
				"target/":           "build output",
				"_site/":            "build output",
				"node_modules/":     "dependencies",
			}
			for p, want := range reasons {
				if got := skippedReason(ix, p); !strings.Contains(got, want) {
					t.Errorf("skipped %s: reason %q, want %q", p, got, want)
				}
			}
		})
	}
}

// TestUpdateBuildDirs checks that Update judges a path as the walk does:
// a new source under doc/build is indexed, a git-ignored one is not.
func TestUpdateBuildDirs(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, sphinxWorkspace)
	ix := openTest(t, os.DirFS(root), Options{})
	writeTree(t, root, map[string]string{
		"doc/build/orm/queryguide.rst":   "Query Guide\n===========\n\nSelecting wallabies with the ORM.\n",
		"doc/build/output/html/new.html": "<html><body><main><h1>x</h1><p>generated wallaby</p></main></body></html>",
		"dist/CHANGES.md":                "# Changes\n\ncopied wallaby notes\n",
		"docs/build/html/_sources/x.md":  "# x\n\ngenerated wallaby copy\n",
	})
	err := ix.Update(ctx, []string{"doc/build/orm/queryguide.rst", "doc/build/output/html/new.html", "dist/CHANGES.md", "docs/build/html/_sources/x.md"})
	if err != nil {
		t.Fatal(err)
	}
	res, _ := ix.Search(ctx, Query{Text: "wallabies", MinScore: zero()})
	if got := resultPaths(res); !slices.Equal(got, []string{"doc/build/orm/queryguide.rst"}) {
		t.Errorf("after Update, wallabies finds %v", got)
	}
}

// TestUpdateIgnoresNonDocuments checks that a changed file no scope
// would index (a source file, a file in node_modules) is passed over
// quietly: a watcher hands Update every change, documents or not.
func TestUpdateIgnoresNonDocuments(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, workspace)
	ix := openTest(t, os.DirFS(root), Options{})
	before := ix.Stats()
	if err := ix.Update(ctx, []string{"src/main.go", "node_modules/x/README.md", ".git/HEAD", "docs/notes.txt"}); err != nil {
		t.Errorf("Update of files that are not documents: %v", err)
	}
	if after := ix.Stats(); after.Docs != before.Docs {
		t.Errorf("docs %d after the update, %d before", after.Docs, before.Docs)
	}
	if err := ix.Update(ctx, []string{"../outside.md"}); err == nil {
		t.Error("update outside the root accepted")
	}
}

func resultPaths(res Results) []string {
	var out []string
	for _, r := range res.Results {
		out = append(out, r.Path)
	}
	return out
}

// TestGitignore checks the ignore rules the walk applies.
func TestGitignore(t *testing.T) {
	rules := parseIgnore("", "# comment\n\n*.log\n!keep.log\n/top.md\nbuild/\ndocs/**/gen\n\\#hash.md\nspace\\ \n")
	sub := parseIgnore("a", "/local.md\n*.md\n!b/ok.md\n")
	cases := []struct {
		p    string
		dir  bool
		want bool
	}{
		{"x.log", false, true},
		{"a/b/x.log", false, true},
		{"keep.log", false, false},
		{"top.md", false, true},
		{"b/top.md", false, false},
		{"build", true, true},
		{"a/build", true, true},
		{"build", false, false}, // a file named build
		{"docs/gen", true, true},
		{"docs/x/y/gen", true, true},
		{"other/gen", true, false},
		{"#hash.md", false, true},
		{"space ", false, true},
		{"a/local.md", false, true},
		{"a/c/local.md", false, true}, // *.md in a/
		{"a/b/ok.md", false, false},
		{"b/local.md", false, false},
	}
	stack := ignoreStack{rules, sub}
	for _, c := range cases {
		if got := stack.ignored(c.p, c.dir) != nil; got != c.want {
			t.Errorf("ignored(%q, dir=%v) = %v, want %v", c.p, c.dir, got, c.want)
		}
	}
}
