package docsearch

import (
	"strings"
	"testing"
)

func TestTranslationCode(t *testing.T) {
	for file, want := range map[string]bool{
		"src/locale/cs.js":                  true,
		"locale/en-gb.js":                   true,
		"dist/locale/zh-cn.js":              true,
		"esm/locale/pt-br.js":               true,
		"i18n/zh_Hant_TW.ts":                true,
		"translations/en/en.go":             true, // go-playground/validator: a directory per language
		"humanize/locale/fr_FR/messages.py": true,
		"locales/es-419.js":                 true,
		"src/lib/locale/locale.js":          false, // the machinery that loads them
		"src/lib/locale/lists.js":           false,
		"src/lib/locale/base-config.js":     false,
		"locale/index.js":                   false,
		"src/languages/go.js":               false, // highlight.js: programming languages
		"lang/css.js":                       false,
		"src/locale.js":                     false,
		"src/cs.js":                         false,
		"locale/x-pseudo.js":                false, // no language's tag
		"translations/translations.go":      false,
	} {
		if got := translationCode(file); got != want {
			t.Errorf("translationCode(%q) = %v, want %v", file, got, want)
		}
		if got := SideCode(file); got != want && !testCode(file) {
			t.Errorf("SideCode(%q) = %v, want %v", file, got, want)
		}
	}
}

func TestLanguageTag(t *testing.T) {
	for s, want := range map[string]bool{
		"en": true, "pt-br": true, "zh_Hant_TW": true, "es-419": true, "gom-latn": true,
		"e": false, "english": false, "x-pseudo": false, "en-": false, "en-a": false, "e1": false, "": false,
	} {
		if got := languageTag(s); got != want {
			t.Errorf("languageTag(%q) = %v, want %v", s, got, want)
		}
	}
}

// A bundle's copy of a translation (moment's min/locales.js) is answered
// by the translation, which ranks under the project's own code as a test
// does, for a question that asks for no language.
func TestTranslationRanksUnder(t *testing.T) {
	ix := openTest(t, mapFS(nil), Options{})
	relative := "function translate(number, withoutSuffix, key) {\n" +
		"    switch (key) {\n" +
		"        case 'm': // a minute / in a minute / a minute ago\n" +
		"            return withoutSuffix ? 'minuta' : 'minutou';\n" +
		"        case 'h': // an hour / in an hour / an hour ago\n" +
		"            return withoutSuffix ? 'hodina' : 'hodinou';\n" +
		"    }\n}"
	putCode(t, ix, []CodeFile{
		{Path: "src/locale/cs.js", Symbols: []CodeSymbol{{Name: "src.locale.cs.translate", Kind: "function", Signature: "function translate(number, withoutSuffix, key)", Body: relative, Line: 40, End: 92}}},
		{Path: "min/locales.js", Symbols: []CodeSymbol{{Name: "min.locales.translate", Kind: "function", Signature: "function translate(number, withoutSuffix, key)",
			Body: strings.ReplaceAll(relative, "\n", "\n    "), Line: 300, End: 352}}}, // a bundle indents its modules

		{Path: "src/lib/moment/from.js", Symbols: []CodeSymbol{{Name: "src.lib.moment.from.fromNow", Kind: "function", Signature: "export function fromNow(withoutSuffix)",
			Doc: "Shows how long ago the date was, relative to now.", Body: "export function fromNow(withoutSuffix) {\n    return this.from(createLocal(), withoutSuffix);\n}", Line: 18, End: 20}}},
	})
	expectFirst(t, ix, "show how long ago a date was, like a minute ago or an hour ago", []string{ScopeCode}, "src.lib.moment.from.fromNow")
	expectFirst(t, ix, "the translation of an hour ago", []string{ScopeCode}, "src.locale.cs.translate")
}
