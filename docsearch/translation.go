package docsearch

import (
	"path"
	"strings"
)

// translationCode reports whether the code file at slash path file is
// one language's translation: a file named by a language tag (cs.js,
// en-gb.js, zh_CN.ts, pt-br.go) in a directory of them (locale/,
// locales/, i18n/, l10n/, translations/), or any file under such
// a tag's own directory there (go-playground/validator's
// translations/en/en.go). Each holds one language's words for messages
// the project's own code composes (moment's 130 locale/*.js, dayjs's,
// a validator's), so a question about what the code does meets them in
// every language the project speaks, as it meets tests, while the
// machinery that loads them (moment's src/lib/locale/locale.js) is named
// otherwise and is not one.
func translationCode(file string) bool {
	dirs := strings.Split(strings.ToLower(path.Dir(file)), "/")
	for i, d := range dirs {
		if !translationDir(d) {
			continue
		}
		if i+1 < len(dirs) {
			if languageTag(dirs[i+1]) {
				return true
			}
			continue
		}
		base := path.Base(file)
		if k := strings.IndexByte(base, '.'); k > 0 {
			base = base[:k]
		}
		return languageTag(base)
	}
	return false
}

// translationDir reports whether a lower-cased directory name is one
// that holds translations by language. lang/ and languages/ are not:
// they hold programming languages as often (highlight.js's
// src/languages/go.js, css.js, sql.js), whose names read as tags too.
func translationDir(d string) bool {
	switch d {
	case "locale", "locales", "i18n", "l10n", "translations":
		return true
	}
	return false
}

// languageTag reports whether s reads as a BCP 47 or POSIX language tag:
// two or three letters, then subtags of two to eight letters or digits
// after a hyphen or underscore (en, pt-br, zh_Hant_TW, es-419).
func languageTag(s string) bool {
	lang, rest, subtags := strings.Cut(strings.ReplaceAll(s, "_", "-"), "-")
	if len(lang) < 2 || len(lang) > 3 || !everyByte(lang, isASCIILetter) {
		return false
	}
	if !subtags {
		return true
	}
	for sub := range strings.SplitSeq(rest, "-") {
		if len(sub) < 2 || len(sub) > 8 || !everyByte(sub, isASCIIAlnum) {
			return false
		}
	}
	return true
}

// everyByte reports whether ok holds for every byte of s.
func everyByte(s string, ok func(byte) bool) bool {
	for i := range len(s) {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

func isASCIILetter(c byte) bool { return isASCIIAlnum(c) && c > '9' }

// asksForLanguage reports whether a query is about languages,
// translations or locales, whose files are then what it asks for.
func asksForLanguage(q string) bool {
	return queryNames(q, "language", "languages", "locale", "locales", "translation", "translations", "translate",
		"translated", "i18n", "l10n", "internationalization", "internationalisation", "localization", "localisation",
		"localize", "localise", "localized", "localised", "english", "french", "german", "spanish", "chinese", "japanese")
}
