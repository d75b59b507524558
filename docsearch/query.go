package docsearch

import (
	"regexp"
	"strings"
)

// QueryType is what kind of answer a query looks for. It is decided by
// rules on the raw query (classify) and sets the defaults of a search
// (Plan): how many results, which content type to prefer, and how far to
// expand a hit to its neighbouring chunks.
type QueryType string

const (
	QueryError        QueryType = "error"         // an error message or a failure to explain
	QueryHowTo        QueryType = "howto"         // steps to do something
	QueryConcept      QueryType = "concept"       // what something is or why
	QueryCodeLookup   QueryType = "code_lookup"   // an identifier or a code fragment
	QueryAPIReference QueryType = "api_reference" // the parameters or signature of an API
	QueryGeneral      QueryType = "general"
)

// Plan is what a query type sets.
type Plan struct {
	Type   QueryType
	Limit  int         // results wanted
	Prefer ContentType // chunks of this type score higher; "" for none
	// Adjacent is how many neighbouring chunks on each side a hit of each
	// content type is expanded by; absent means none.
	Adjacent map[ContentType]int
}

// plans are the defaults per query type: concepts and errors need the
// most context, code lookups are self-contained.
//
// An API-reference query prefers no content type. Preferring the chunks
// typed api-reference (by their words: "parameters", "returns", a
// heading naming a call) cost nDCG@10 on every measured set, more the
// more they were preferred: with the boost at 1.15 / 1.05 / 1.02 / none,
// CoSQA-test 0.4998 / 0.5005 / 0.5007 / 0.5009, the known-item sets of
// Go 0.551 / 0.558 / 0.563 / 0.566, Python 0.551 / 0.556 / 0.558 /
// 0.560 and JavaScript 0.479 / 0.486 / 0.488 / 0.489, and the two of
// npm docs sections 0.628 / 0.630 / 0.632 / 0.633 and 0.621 / 0.625 /
// 0.626 / 0.626 (2026-11-26). Such a query ("returns the number of
// rows", "options for the parser") reads like the text that explains
// the API as much as like its reference entry. Preferring prose for
// concepts moved none of them by more than 0.0003.
var plans = map[QueryType]Plan{
	QueryConcept:      {Limit: 15, Prefer: Prose, Adjacent: map[ContentType]int{Prose: 3, Code: 2, APIReference: 1}},
	QueryHowTo:        {Limit: 12, Adjacent: map[ContentType]int{Prose: 2, Code: 3, APIReference: 1}},
	QueryError:        {Limit: 15, Adjacent: map[ContentType]int{Prose: 2, Code: 3, APIReference: 2}},
	QueryCodeLookup:   {Limit: 10, Prefer: Code},
	QueryAPIReference: {Limit: 8, Adjacent: map[ContentType]int{Prose: 1, Code: 1, APIReference: 2}},
	QueryGeneral:      {Limit: 10, Adjacent: map[ContentType]int{Prose: 2, Code: 2, APIReference: 1}},
}

// PlanFor returns the plan of a query type; an unknown type gets the
// general plan.
func PlanFor(t QueryType) Plan {
	p, ok := plans[t]
	if !ok {
		t, p = QueryGeneral, plans[QueryGeneral]
	}
	p.Type = t
	return p
}

var (
	// errorPattern matches error messages and the words around failures.
	errorPattern   = regexp.MustCompile(`(?i)\b(error|exception|panic|traceback|fail(s|ed|ure)?|crash(es|ed)?|cannot|can't|unable to|undefined|not found|segfault|stack ?trace|errno|denied|refused|timed? ?out|invalid)\b|\w+(Error|Exception)\b|^\s*E\d{3,}|:\d+:\d+`)
	howtoPattern   = regexp.MustCompile(`(?i)^\s*(how (do|to|can|should|would)|steps? to|guide to|tutorial|example of|set ?up|install|configure|create|add|use|implement|build|write|make)\b|\bhow to\b|\bexample\b`)
	conceptPattern = regexp.MustCompile(`(?i)^\s*(what (is|are|does)|why|explain|describe|overview of|concept of|difference between|when (should|to))\b|\b(vs\.?|versus|difference|meaning of|purpose of)\b`)
	apiPattern     = regexp.MustCompile(`(?i)\b(api|parameters?|params?|arguments?|args|signature|returns?|return type|options? for|flags?|reference|method|property|properties|fields?|endpoint|type of)\b`)
	// codePattern matches identifiers that only code has: camelCase,
	// snake_case, dotted or :: names, calls, backticks.
	codePattern = regexp.MustCompile("`[^`]+`|\\b[a-z]+[A-Z]\\w*\\b|\\b[A-Z][a-z]+[A-Z]\\w*\\b|\\b\\w+_\\w+\\b|\\b\\w+(\\.|::)\\w+\\b|\\w+\\(\\)?")
)

// classify decides the type of a query by rules, most specific first: an
// error message, then a question about an API, a how-to, a concept, a
// bare identifier, else general.
func classify(q string) QueryType {
	q = strings.TrimSpace(q)
	words := len(strings.Fields(q))
	switch {
	case q == "":
		return QueryGeneral
	case errorPattern.MatchString(q):
		return QueryError
	case conceptPattern.MatchString(q):
		return QueryConcept
	case howtoPattern.MatchString(q):
		return QueryHowTo
	case apiPattern.MatchString(q) && (codePattern.MatchString(q) || words <= 6):
		return QueryAPIReference
	case codePattern.MatchString(q) && words <= 3:
		return QueryCodeLookup
	}
	return QueryGeneral
}
