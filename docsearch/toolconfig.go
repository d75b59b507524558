package docsearch

import (
	"path"
	"strings"
)

// Build tools' configuration is code that is not the project's API: a
// repository holds webpack.config.js, jest.config.ts, gulpfile.js,
// Sphinx's docs/conf.py, noxfile.py beside its sources, and their words
// (output, resolve, plugins, version, extensions) match questions about
// what the code does. They rank as tests do (featTest) unless the
// question is about the build or its tools. Published packages leave
// such files out, so no benchmark set here holds more than one; a
// repository as checked out holds several.

// toolConfigNames are files that configure a build or its tools by their
// whole name, lower-cased.
var toolConfigNames = map[string]bool{
	"gulpfile.js": true, "gulpfile.ts": true, "gulpfile.babel.js": true, "gruntfile.js": true, "gruntfile.coffee": true,
	"karma.conf.js": true, "karma.conf.ts": true, "protractor.conf.js": true,
	"noxfile.py": true, "fabfile.py": true, "magefile.go": true, "rakefile": true,
	".eslintrc.js": true, ".eslintrc.cjs": true, ".prettierrc.js": true, ".babelrc.js": true, ".mocharc.js": true,
}

// toolConfig reports whether the file at slash path file configures a
// build or its tools: a name in toolConfigNames, NAME.config.EXT of a
// script (webpack, rollup, vite, vitest, jest, babel, eslint, tailwind,
// postcss, next, svelte, playwright, ...), webpack.*.js, or a conf.py
// under a docs directory (Sphinx's).
func toolConfig(file string) bool {
	base := strings.ToLower(path.Base(file))
	if toolConfigNames[base] {
		return true
	}
	stem, script := scriptStem(base)
	if !script {
		return base == "conf.py" && inDir(file, "doc", "docs", "documentation", "sphinx")
	}
	return strings.HasSuffix(stem, ".config") || strings.HasPrefix(stem, "webpack.")
}

// asksForBuild reports whether a query is about building, configuring or
// the tools that do it, whose configuration then is an answer. What a
// project's code itself does (compile, transpile, render) is not asked
// of its build: a question in the sass repository about compiling a
// stylesheet wants the compiler, not the gulpfile that runs it.
func asksForBuild(q string) bool {
	return queryNames(q, "build", "builds", "bundle", "bundler", "bundling", "config", "configs", "configure", "configuring",
		"configuration", "webpack", "rollup", "vite", "vitest", "babel", "eslint", "lint", "linter", "linting", "jest", "karma",
		"gulp", "grunt", "sphinx", "nox", "tailwind", "postcss", "toolchain")
}
