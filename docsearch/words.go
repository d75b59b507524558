package docsearch

import "strings"

// Query words that do not mean what their spelling says: language names
// that qualify a query, the abbreviations code spells words with, and
// the compounds two words make. The lists are of words, stemmed once here
// as the analyzer stems queries.

// Language qualifiers. Code-search queries name the language they want
// ("read a csv file python", "golang parse json"), while code rarely
// names the language it is written in; a qualifier is rare in a corpus
// of code, so its IDF is high and it ranks first whatever merely mentions
// the language. A query word that names a programming language therefore
// counts qualifierWeight times a topic word in lexical search: it still
// prefers the pages about its language among otherwise equal ones.
// Measured on CoSQA-test, every query of which names Python: BM25
// nDCG@10 0.413 -> 0.430 and hybrid 0.447 -> 0.459 with 0.25 (0.1:
// 0.460, 0.5: 0.451; no weight at all: 0.462, but a qualifier would then
// no longer tell Python pages from others); known-item sets whose queries
// rarely name a language moved by at most 0.001. Embedding the query
// without its qualifiers added 0.004 more, within noise, and would lose
// what the word means to a page about the language, so the vector query
// is the text as given.
const qualifierWeight = 0.25

// qualifierStems are the stems of words that name a programming language
// and mean nothing else in technical text: "go", "c", "r", "node",
// "shell" and "swift" are left out, being words of their own.
var qualifierStems = func() map[string]bool {
	an := newAnalyzer()
	m := map[string]bool{}
	for _, w := range strings.Fields(`python python2 python3 py javascript js ecmascript typescript
		nodejs golang java kotlin scala rust rustlang ruby php perl haskell csharp cpp cplusplus
		objc lua elixir erlang clojure matlab julia dart fortran cobol`) {
		m[an.stem(w)] = true
	}
	return m
}()

// Abbreviations. Questions spell words out ("sort a dictionary by
// value"), code abbreviates them (dict, val), and stemming does not join
// the two. A query word also reaches the terms of its abbreviation, or an
// abbreviation the word it stands for, each occurrence counting
// aliasWeight times one of the word as typed; as for every expansion,
// the word's IDF is that of the most frequent term it reaches (see
// lexicalSearch), so a common abbreviation cannot make a match look rare.
//
// Measured, nDCG@10 hybrid / bm25, before and after: CoSQA-test 0.459 /
// 0.430 -> 0.463 / 0.440; known-item sets of Python functions 0.572 /
// 0.537 -> 0.574 / 0.547, of JavaScript functions 0.520 / 0.477 -> 0.525
// / 0.480, of Go doc comments 0.842 / 0.852 and 0.736 / 0.746 -> the
// same and 0.739 / 0.748. A weight of 1 gave 0.466 on CoSQA but less on
// the JavaScript set (0.521); 0.5 gave less on CoSQA (0.460).
// Abbreviations that are keywords or everyday words of some language
// (func, fn, var, def, del, exec, res, op, ms) are left out: in code of
// that language they are everywhere, and would match everything; so is
// doc, which documentation says as docs. So are txt, a file's extension
// ("read the first line of a txt file"), and sec (security, section),
// which reached the wrong words in CoSQA's questions. The second list,
// from utility:util on (2026-12-07): written questions' tuning split
// 0.566 -> 0.568 (semver's cmp for "compare", sqlx's Conn for
// "connection"), CoSQA-test 0.502 both, identifier queries 0.844 ->
// 0.843; held-out TypeScript 0.466 -> 0.477, Python 0.513 -> 0.510.
// The third, from automatic:auto on (twenty-sixth session): tuning split
// 0.596 -> 0.598 (mobx's makeAutoObservable for "observable
// automatically", paramiko's AutoAddPolicy), docs/bench/codegen's
// tuning split 0.264 -> 0.270, docs 0.836 -> 0.837 MRR; the held-out
// split, docs/bench/codeheld, CoSQA and identifier queries unchanged.
const aliasWeight = 0.8

// aliases maps the stem of a word to the stems of its abbreviations, and
// the stem of an abbreviation to the stems of the words it stands for.
var aliases = func() map[string][]string {
	an := newAnalyzer()
	m := map[string][]string{}
	for _, pair := range strings.Fields(`dictionary:dict string:str integer:int array:arr
		length:len number:num directory:dir configuration:config configure:config
		initialize:init argument:arg parameter:param maximum:max minimum:min message:msg
		error:err environment:env image:img database:db temporary:tmp concatenate:concat
		object:obj value:val index:idx character:char boolean:bool attribute:attr
		column:col current:cur previous:prev sequence:seq reference:ref specification:spec
		position:pos source:src destination:dst destination:dest command:cmd context:ctx
		buffer:buf iterator:iter list:lst calculate:calc random:rand authentication:auth
		library:lib package:pkg request:req response:resp memory:mem permission:perm
		information:info synchronize:sync asynchronous:async standard:std expression:expr
		statistics:stats matrix:mat vector:vec hexadecimal:hex address:addr allocate:alloc
		application:app average:avg button:btn certificate:cert dimension:dim element:elem
		frequency:freq generate:gen language:lang manager:mgr options:opts password:pwd
		pointer:ptr properties:props property:prop receive:recv repository:repo
		separator:sep utility:util original:orig temporary:temp connection:conn
		transaction:txn transaction:tx callback:cb event:evt description:desc
		declaration:decl exception:exc warning:warn debug:dbg control:ctrl controller:ctrl
		keyboard:kbd count:cnt counter:ctr format:fmt template:tmpl template:tpl
		statement:stmt session:sess channel:chan location:loc miscellaneous:misc
		system:sys instance:inst registry:reg register:reg administrator:admin
		credential:cred signature:sig cryptography:crypto encoding:enc picture:pic
		navigation:nav quantity:qty amount:amt account:acct authorization:authz
		compare:cmp coordinate:coord difference:diff distance:dist duration:dur
		extension:ext header:hdr horizontal:horiz vertical:vert increment:incr
		kilobyte:kb multiply:mul negative:neg process:proc return:ret
		automatic:auto automatically:auto dependency:dep development:dev module:mod
		implementation:impl optional:opt option:opt rectangle:rect record:rec segment:seg
		server:srv service:svc socket:sock structure:struct table:tbl token:tok window:win
		interface:iface identifier:ident organization:org production:prod percentage:pct
		history:hist fragment:frag`) {
		full, abbr, _ := strings.Cut(pair, ":")
		f, a := an.stem(full), an.stem(abbr)
		if f != a {
			m[f] = append(m[f], a)
			m[a] = append(m[a], f)
		}
	}
	return m
}()

// Closed compounds. Code and prose write some words as one that a
// question writes as two ("file name" for filename, "read only" for
// readonly, "data frame" for dataframe), and the analyzer cannot cut a
// lower-case run into words. So two adjacent query words whose joining
// is a term of the index reach that term too, as the first of them
// that is not a stop word: a chunk that says filename matches "file" as
// fully as one that says file. Measured, nDCG@10 hybrid / bm25:
// CoSQA-test 0.463 / 0.440 -> 0.467 / 0.443; the Python and JavaScript
// known-item sets 0.574 / 0.547 -> 0.577 / 0.553 and 0.525 / 0.480 ->
// 0.526 / 0.481; the Go doc-comment sets unchanged or +0.001. Without
// the joins that have a stop word in them, Python's was 0.575 / 0.551.

// joinedTerms returns, for the stem of each word of text that joins with
// the next word into a term of lex, that term's ID; when the word is a
// stop word ("log in", "set up"), the next word's stem. Single letters and
// two stop words do not join.
func joinedTerms(lex *lexicon, text string) map[string][]uint32 {
	var out map[string][]uint32
	an := newAnalyzer()
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !isWordRune(r) })
	for i := 0; i+1 < len(words); i++ {
		a, b := words[i], words[i+1]
		if len(a) < 2 || len(b) < 2 || stopwords[a] && stopwords[b] {
			continue
		}
		for _, t := range []string{an.stem(a + b), a + b} {
			if id, ok := lex.id(t); ok {
				if out == nil {
					out = map[string][]uint32{}
				}
				s := a
				if stopwords[a] {
					s = b // "in" has no group of its own
				}
				s = an.stem(s)
				out[s] = append(out[s], id)
				break
			}
		}
	}
	return out
}

// British and American spellings. Docs are written in either, and
// questions too, but the stemmer keeps initialise and initialize,
// colour and color apart. Every word is read in its American spelling
// before it is stemmed, in documents and queries alike, so either finds
// the other: -ise, -isation and -yse verbs take z, and the words of
// britishWords their American forms. A word the rule misreads
// (promise, promize) is misread the same way everywhere, so it still
// finds itself.

// britishWords maps British spellings the -ise rule does not cover to
// American ones.
var britishWords = func() map[string]string {
	m := map[string]string{}
	for _, pair := range strings.Fields(`colour:color colours:colors coloured:colored
		behaviour:behavior behaviours:behaviors favour:favor favourite:favorite
		favourites:favorites honour:honor labour:labor neighbour:neighbor
		neighbours:neighbors flavour:flavor flavours:flavors humour:humor
		harbour:harbor rumour:rumor armour:armor vapour:vapor
		centre:center centres:centers centred:centered metre:meter metres:meters
		litre:liter litres:liters fibre:fiber theatre:theater
		licence:license licences:licenses defence:defense offence:offense
		catalogue:catalog catalogues:catalogs dialogue:dialog dialogues:dialogs
		analogue:analog grey:gray greyed:grayed programme:program programmes:programs
		cheque:check`) {
		b, a, _ := strings.Cut(pair, ":")
		m[b] = a
	}
	return m
}()

// americanSpelling returns the lower-case word w as American English
// spells it.
func americanSpelling(w string) string {
	if a, ok := britishWords[w]; ok {
		return a
	}
	if len(w) < 6 {
		return w // rise, wise, size
	}
	for _, suf := range []string{"isations", "isation", "ising", "ised", "ises", "isers", "iser", "ise", "ysing", "ysed", "yses", "yse"} {
		if strings.HasSuffix(w, suf) {
			stem := w[:len(w)-len(suf)]
			return stem + strings.Replace(suf, "s", "z", 1)
		}
	}
	return w
}
