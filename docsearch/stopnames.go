package docsearch

import (
	"strings"
	"unicode"
)

// Stop words as names. Code names functions with words that prose
// leaves out: SQLAlchemy's Select.where, a promise's then, lodash's once,
// an emitter's off, mobx's when, Go's errors.Is and time.After. A
// symbol's own name keeps them as terms (namesAnalyzer), and a query
// keeps those it writes as a name (queryStops): the query is nothing but
// stop words ("where", "then"), the word is part of a code token
// (`Select.where`, "errors.Is", "then()"), or it follows an article,
// is one code calls things by and comes before a word that is no stop
// word ("add a where clause", "the once helper"; not "an from an
// object"). A few say what a question asks for wherever they stand
// (orderWords: "falls between two dates" is moment's isBetween, "listen
// for any event" socket.io's onAny, "load all rows" sqlx's Select into
// a slice). Elsewhere a stop word is prose, and left out as ever.

// nameStops are the stop words that code calls functions and methods by,
// which a query marks as names by an article before them.
var nameStops = setOf(`where then when once off before after between until while each all
	any some not from is in do up down over under`)

// orderWords are the stop words of order and quantity that a question
// uses as it would a name, and kept wherever they stand. Those of
// nameStops left out are mostly prose in a question ("from the
// request", "when a request fails", "is not registered"), and so are
// the particles of phrasal verbs (up, down, over, off, under: "wake up a
// sleeping task" went to every sunrpc function named wake_up on Linux,
// "nest commands under a group" lost click's group). Measured on the
// tuning split of docs/bench/code (docs/code-search.md, twenty-sixth
// session).
var orderWords = setOf(`once before after between until each all any`)

// articles are the words before a noun.
var articles = setOf(`a an the`)

// queryStops returns which stop words of query are kept as terms (see
// above), or nil for none.
func queryStops(query string) func(string) bool {
	keep := map[string]bool{}
	var plain []string // the query's plain words, lower case; "" for a code token
	for _, tok := range strings.Fields(query) {
		tok = strings.Trim(tok, `"'?!,;:`)
		if tok == "" {
			continue
		}
		if codeToken(tok) {
			for _, p := range splitParts(strings.Trim(tok, "`()."), nil) {
				if w := strings.ToLower(p); stopwords[w] {
					keep[w] = true
				}
			}
			plain = append(plain, "")
			continue
		}
		w := strings.ToLower(tok)
		if orderWords[w] {
			keep[w] = true
		}
		plain = append(plain, w)
	}
	// After an article, before a word that is no stop word (or at the
	// end): "a where clause", not "an from an object".
	for i := 1; i < len(plain); i++ {
		if w := plain[i]; articles[plain[i-1]] && nameStops[w] && (i+1 == len(plain) || !stopwords[plain[i+1]]) {
			keep[w] = true
		}
	}
	allStop := len(plain) > 0
	for _, w := range plain {
		if w == "" || !stopwords[w] {
			allStop = false
			break
		}
	}
	if allStop {
		for _, w := range plain {
			keep[w] = true
		}
	}
	if len(keep) == 0 {
		return nil
	}
	return func(w string) bool { return keep[w] }
}

// codeToken reports whether a word of a query is written as code: in
// backticks, called, dotted or scoped, snake_case or camelCase.
func codeToken(tok string) bool {
	if strings.ContainsAny(tok, "`()._:") {
		return true
	}
	for i, r := range tok {
		if i > 0 && unicode.IsUpper(r) {
			return true
		}
	}
	return false
}
