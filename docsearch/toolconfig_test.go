package docsearch

import "testing"

func TestToolConfig(t *testing.T) {
	for file, want := range map[string]bool{
		"webpack.config.js": true, "packages/app/vite.config.ts": true, "jest.config.cjs": true, "webpack.prod.js": true,
		"gulpfile.js": true, "Gruntfile.js": true, "karma.conf.js": true, "docs/conf.py": true, "noxfile.py": true,
		".eslintrc.js": true, "eslint.config.mjs": true,
		"src/config.js": false, "lib/config/index.ts": false, "src/app.config.json": false, "conf.py": false,
		"app/settings/conf.py": false, "src/webpack/loader.js": false, "lib/router.js": false,
	} {
		if got := toolConfig(file); got != want {
			t.Errorf("toolConfig(%s) = %v, want %v", file, got, want)
		}
	}
}

// TestToolConfigRanksUnder: a build tool's configuration (a gulpfile's
// task), whose words match a question about what the code does, ranks
// under the code that does it, unless the question is about the build or
// its tools.
func TestToolConfigRanksUnder(t *testing.T) {
	ix := openTest(t, mapFS(nil), Options{})
	putCode(t, ix, []CodeFile{
		{Path: "gulpfile.js", Symbols: []CodeSymbol{{Name: "gulpfile.styles", Kind: "function", Signature: "function styles()",
			Doc: "Render the Sass styles into CSS files.", Body: "return src('scss/*.scss').pipe(sass()).pipe(dest('css'))", Line: 3, End: 5}}},
		{Path: "lib/render.js", Symbols: []CodeSymbol{{Name: "lib.render.render", Kind: "function", Signature: "function render(options)",
			Doc: "Renders a stylesheet to CSS.", Body: "const ast = parse(options.data); return { css: stringify(evaluate(ast)) }", Line: 3, End: 40}}},
	})
	expectFirst(t, ix, "render sass styles into css", []string{ScopeCode}, "lib.render.render")
	expectFirst(t, ix, "gulp task that renders sass styles into css", []string{ScopeCode}, "gulpfile.styles")
}
