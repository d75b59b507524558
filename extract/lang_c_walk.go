package extract

// C's query, walked by hand in one call into C.
//
// On Linux's fs/ include/ kernel/ lib/ mm/ the query cursor took 13 % of a
// cold `index`'s CPU (docs/bigrepos.md): it keeps a state for every
// pattern that may still match around each node and asks the tree cursor
// for each node's field, siblings and supertypes. A pre-order walk with a
// tree cursor that looks at a node's children only when its type starts
// one of C's patterns finds the same matches for a fraction of that
// (BenchmarkCWalk). TestCWalkEqualsQuery and FuzzCWalk hold it to the
// query's matches: queries/c.scm and cRepairQuery are the specification,
// and a change to either must be made here too. Where the cursor's rules
// are subtle the walk keeps them: (_) is a named node that is not an
// ERROR; the anchor `.` passes over anonymous siblings only; a child that
// no later step captures is taken at its first fit, not once for each
// (a declaration matches a repair pattern once however many declarators
// fit); patterns start no deeper than maxStartDepth below the root.

/*
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct TSTree TSTree;
typedef struct TSLanguage TSLanguage;
typedef struct { uint32_t context[4]; const void *id; const TSTree *tree; } TSNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;

TSTreeCursor ts_tree_cursor_new(TSNode);
void ts_tree_cursor_delete(TSTreeCursor *);
void ts_tree_cursor_reset(TSTreeCursor *, TSNode);
TSNode ts_tree_cursor_current_node(const TSTreeCursor *);
uint16_t ts_tree_cursor_current_field_id(const TSTreeCursor *);
bool ts_tree_cursor_goto_first_child(TSTreeCursor *);
bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *);
bool ts_tree_cursor_goto_parent(TSTreeCursor *);
uint16_t ts_node_symbol(TSNode);
bool ts_node_is_named(TSNode);
uint16_t ts_language_symbol_for_name(const TSLanguage *, const char *, uint32_t, bool);
uint16_t ts_language_field_id_for_name(const TSLanguage *, const char *, uint32_t);

// The node types and fields C's patterns name, indexes into fi_c_ids.
enum {
	S_PREPROC_INCLUDE, S_FUNCTION_DEFINITION, S_DECLARATION, S_FUNCTION_DECLARATOR,
	S_POINTER_DECLARATOR, S_PREPROC_FUNCTION_DEF, S_IDENTIFIER, S_TRANSLATION_UNIT,
	S_EXPRESSION_STATEMENT, S_CALL_EXPRESSION, S_COMPOUND_STATEMENT, S_PREPROC_IFDEF,
	S_PREPROC_IF, S_PREPROC_ELSE, S_STRUCT_SPECIFIER, S_UNION_SPECIFIER, S_ENUM_SPECIFIER,
	S_TYPE_IDENTIFIER, S_TYPE_DEFINITION, S_FIELD_EXPRESSION, S_FIELD_IDENTIFIER,
	S_MACRO_TYPE_SPECIFIER, S_INIT_DECLARATOR, S_COUNT
};
enum { F_DECLARATOR, F_BODY, F_NAME, F_FUNCTION, F_ARGUMENT, F_FIELD, F_TYPE, F_COUNT };

// The captures, indexes into the Go side's capture table.
enum {
	C_IMPORT, C_NAME, C_BODY, C_DEF_FUNCTION, C_DEF_STRUCT, C_DEF_ENUM, C_DEF_TYPE,
	C_CALL, C_CALL_NAME, C_CALL_RECEIVER, C_REPAIR, C_COUNT
};

#define SYM_ERROR ((uint16_t)-1)

typedef struct {
	uint16_t sym[S_COUNT];
	uint16_t field[F_COUNT];
} fi_c_ids;

// fi_c_cap is one capture of a match; a match's captures are adjacent
// and share its number.
typedef struct {
	TSNode node;
	uint32_t match;
	uint16_t pattern; // index of the pattern in queries/c.scm and cRepairQuery
	uint16_t capture; // C_*
} fi_c_cap;

typedef struct {
	TSNode node;
	uint16_t field;
	uint16_t sym;
	bool named;
} fi_c_kid;

typedef struct {
	const fi_c_ids *ids;
	fi_c_cap *caps;
	uint32_t ncaps, capcap, matches;
	fi_c_kid *kids;
	uint32_t nkids, kidcap;
	TSTreeCursor kc;
	uint16_t pattern;
	bool oom;
} fi_c_walker;

static void fi_c_begin(fi_c_walker *w, uint16_t pattern) {
	w->matches++;
	w->pattern = pattern;
}

static void fi_c_capture(fi_c_walker *w, uint16_t capture, TSNode node) {
	if (w->ncaps == w->capcap) {
		uint32_t n = w->capcap ? 2 * w->capcap : 256;
		fi_c_cap *c = realloc(w->caps, n * sizeof *c);
		if (!c) {
			w->oom = true;
			return;
		}
		w->caps = c;
		w->capcap = n;
	}
	fi_c_cap *c = &w->caps[w->ncaps++];
	c->node = node;
	c->match = w->matches - 1;
	c->pattern = w->pattern;
	c->capture = capture;
}

// fi_c_kids appends the children of node to w->kids and returns the index
// of the first; the caller truncates w->nkids back to it when done.
static uint32_t fi_c_kids(fi_c_walker *w, TSNode node) {
	uint32_t base = w->nkids;
	ts_tree_cursor_reset(&w->kc, node);
	if (!ts_tree_cursor_goto_first_child(&w->kc)) {
		return base;
	}
	do {
		if (w->nkids == w->kidcap) {
			uint32_t n = w->kidcap ? 2 * w->kidcap : 64;
			fi_c_kid *k = realloc(w->kids, n * sizeof *k);
			if (!k) {
				w->oom = true;
				return base;
			}
			w->kids = k;
			w->kidcap = n;
		}
		fi_c_kid *k = &w->kids[w->nkids++];
		k->node = ts_tree_cursor_current_node(&w->kc);
		k->field = ts_tree_cursor_current_field_id(&w->kc);
		k->sym = ts_node_symbol(k->node);
		k->named = ts_node_is_named(k->node);
	} while (ts_tree_cursor_goto_next_sibling(&w->kc));
	return base;
}

// fi_c_wild reports whether k matches the query's (_): a named node
// that is not an ERROR.
static bool fi_c_wild(const fi_c_kid *k) {
	return k->named && k->sym != SYM_ERROR;
}

// fi_c_has_kid reports whether node has a child of symbol sym in field
// field (0: any field).
static bool fi_c_has_kid(fi_c_walker *w, TSNode node, uint16_t field, uint16_t sym) {
	uint32_t base = fi_c_kids(w, node), end = w->nkids;
	bool found = false;
	for (uint32_t i = base; i < end && !found; i++) {
		found = w->kids[i].sym == sym && (!field || w->kids[i].field == field);
	}
	w->nkids = base;
	return found;
}

// fi_c_pairs emits a match of pattern for each child a in field fa of
// symbol sa (0: the wildcard) followed by a child b in field fb of
// symbol sb (0: the wildcard): node as def, a as ca, b as cb.
static void fi_c_pairs(fi_c_walker *w, TSNode node, uint16_t pattern, uint16_t def,
		uint16_t fa, uint16_t sa, uint16_t ca, uint16_t fb, uint16_t sb, uint16_t cb) {
	uint32_t base = fi_c_kids(w, node), end = w->nkids;
	for (uint32_t i = base; i < end; i++) {
		fi_c_kid *a = &w->kids[i];
		if (a->field != fa || (sa ? a->sym != sa : !fi_c_wild(a))) {
			continue;
		}
		for (uint32_t j = i + 1; j < end; j++) {
			fi_c_kid *b = &w->kids[j];
			if (b->field != fb || (sb ? b->sym != sb : !fi_c_wild(b))) {
				continue;
			}
			fi_c_begin(w, pattern);
			fi_c_capture(w, def, node);
			fi_c_capture(w, ca, w->kids[i].node);
			fi_c_capture(w, cb, w->kids[j].node);
		}
	}
	w->nkids = base;
}

// fi_c_declaration: patterns 2-4 (prototypes) and 18-19 (repair).
static void fi_c_declaration(fi_c_walker *w, TSNode node) {
	const uint16_t *s = w->ids->sym, *f = w->ids->field;
	uint32_t base = fi_c_kids(w, node), end = w->nkids;
	for (uint32_t i = base; i < end; i++) {
		if (w->kids[i].field != f[F_DECLARATOR]) {
			continue;
		}
		TSNode d = w->kids[i].node;
		uint16_t sym = w->kids[i].sym;
		if (sym == s[S_FUNCTION_DECLARATOR]) {
			fi_c_begin(w, 2);
			fi_c_capture(w, C_DEF_FUNCTION, node);
			fi_c_capture(w, C_NAME, d);
		} else if (sym == s[S_POINTER_DECLARATOR]) {
			uint32_t b2 = fi_c_kids(w, d);
			bool p3 = false, p4 = false;
			for (uint32_t j = b2, e2 = w->nkids; j < e2; j++) {
				if (w->kids[j].field != f[F_DECLARATOR]) {
					continue;
				}
				// Past the captured pointer declarator nothing is
				// captured: one match at most for each pattern.
				if (!p3 && w->kids[j].sym == s[S_FUNCTION_DECLARATOR]) {
					p3 = true;
					fi_c_begin(w, 3);
					fi_c_capture(w, C_DEF_FUNCTION, node);
					fi_c_capture(w, C_NAME, d);
				} else if (!p4 && w->kids[j].sym == s[S_POINTER_DECLARATOR] &&
						fi_c_has_kid(w, w->kids[j].node, f[F_DECLARATOR], s[S_FUNCTION_DECLARATOR])) {
					p4 = true;
					fi_c_begin(w, 4);
					fi_c_capture(w, C_DEF_FUNCTION, node);
					fi_c_capture(w, C_NAME, d);
				}
			}
			w->nkids = b2;
		}
	}
	// (declaration type: (macro_type_specifier) declarator: ...) @repair.
	// The steps after the first capture none, so the cursor keeps one
	// state a type: a declaration matches each pattern once however many
	// of its declarators fit.
	for (uint32_t i = base; i < end; i++) {
		if (w->kids[i].field != f[F_TYPE] || w->kids[i].sym != s[S_MACRO_TYPE_SPECIFIER]) {
			continue;
		}
		bool fn = false, init = false;
		for (uint32_t j = i + 1; j < end; j++) {
			if (w->kids[j].field != f[F_DECLARATOR]) {
				continue;
			}
			if (w->kids[j].sym == s[S_FUNCTION_DECLARATOR]) {
				fn = true;
			} else if (!init && w->kids[j].sym == s[S_INIT_DECLARATOR] &&
					fi_c_has_kid(w, w->kids[j].node, f[F_DECLARATOR], s[S_FUNCTION_DECLARATOR])) {
				init = true;
			}
		}
		if (fn) {
			fi_c_begin(w, 18);
			fi_c_capture(w, C_REPAIR, node);
		}
		if (init) {
			fi_c_begin(w, 19);
			fi_c_capture(w, C_REPAIR, node);
		}
	}
	w->nkids = base;
}

// fi_c_macro_heads: patterns 7-10, a statement that calls a name followed
// at once by a block, among the children of node.
static void fi_c_macro_heads(fi_c_walker *w, TSNode node, uint16_t pattern) {
	const uint16_t *s = w->ids->sym, *f = w->ids->field;
	uint32_t base = fi_c_kids(w, node), end = w->nkids;
	for (uint32_t i = base; i < end; i++) {
		if (w->kids[i].sym != s[S_EXPRESSION_STATEMENT]) {
			continue;
		}
		uint32_t j = i + 1;
		while (j < end && !w->kids[j].named) {
			j++;
		}
		if (j == end || w->kids[j].sym != s[S_COMPOUND_STATEMENT]) {
			continue;
		}
		TSNode stmt = w->kids[i].node, body = w->kids[j].node;
		uint32_t b2 = fi_c_kids(w, stmt), e2 = w->nkids;
		for (uint32_t k = b2; k < e2; k++) {
			if (w->kids[k].sym != s[S_CALL_EXPRESSION]) {
				continue;
			}
			uint32_t b3 = fi_c_kids(w, w->kids[k].node), e3 = w->nkids;
			for (uint32_t m = b3; m < e3; m++) {
				if (w->kids[m].field == f[F_FUNCTION] && w->kids[m].sym == s[S_IDENTIFIER]) {
					fi_c_begin(w, pattern);
					fi_c_capture(w, C_DEF_FUNCTION, stmt);
					fi_c_capture(w, C_NAME, w->kids[m].node);
					fi_c_capture(w, C_BODY, body);
				}
			}
			w->nkids = b3;
		}
		w->nkids = b2;
	}
	w->nkids = base;
}

// fi_c_call: patterns 15 and 16.
static void fi_c_call(fi_c_walker *w, TSNode node) {
	const uint16_t *s = w->ids->sym, *f = w->ids->field;
	uint32_t base = fi_c_kids(w, node), end = w->nkids;
	for (uint32_t i = base; i < end; i++) {
		if (w->kids[i].field != f[F_FUNCTION]) {
			continue;
		}
		if (w->kids[i].sym == s[S_IDENTIFIER]) {
			fi_c_begin(w, 15);
			fi_c_capture(w, C_CALL, node);
			fi_c_capture(w, C_CALL_NAME, w->kids[i].node);
		} else if (w->kids[i].sym == s[S_FIELD_EXPRESSION]) {
			TSNode fe = w->kids[i].node;
			uint32_t b2 = fi_c_kids(w, fe), e2 = w->nkids;
			for (uint32_t a = b2; a < e2; a++) {
				if (w->kids[a].field != f[F_ARGUMENT] || !fi_c_wild(&w->kids[a])) {
					continue;
				}
				for (uint32_t b = a + 1; b < e2; b++) {
					if (w->kids[b].field == f[F_FIELD] && w->kids[b].sym == s[S_FIELD_IDENTIFIER]) {
						fi_c_begin(w, 16);
						fi_c_capture(w, C_CALL, node);
						fi_c_capture(w, C_CALL_RECEIVER, w->kids[a].node);
						fi_c_capture(w, C_CALL_NAME, w->kids[b].node);
					}
				}
			}
			w->nkids = b2;
		}
	}
	w->nkids = base;
}

static void fi_c_visit(fi_c_walker *w, TSNode node) {
	const uint16_t *s = w->ids->sym, *f = w->ids->field;
	uint16_t sym = ts_node_symbol(node);
	if (sym == s[S_CALL_EXPRESSION]) {
		fi_c_call(w, node);
	} else if (sym == s[S_PREPROC_INCLUDE]) {
		fi_c_begin(w, 0);
		fi_c_capture(w, C_IMPORT, node);
	} else if (sym == s[S_FUNCTION_DEFINITION]) {
		fi_c_begin(w, 17);
		fi_c_capture(w, C_REPAIR, node);
		fi_c_pairs(w, node, 1, C_DEF_FUNCTION, f[F_DECLARATOR], 0, C_NAME, f[F_BODY], 0, C_BODY);
	} else if (sym == s[S_DECLARATION]) {
		fi_c_declaration(w, node);
	} else if (sym == SYM_ERROR) {
		uint32_t base = fi_c_kids(w, node), end = w->nkids;
		for (uint32_t i = base; i < end; i++) {
			if (w->kids[i].sym == s[S_FUNCTION_DECLARATOR]) {
				fi_c_begin(w, 5);
				fi_c_capture(w, C_NAME, w->kids[i].node);
				fi_c_capture(w, C_DEF_FUNCTION, w->kids[i].node);
			}
		}
		w->nkids = base;
	} else if (sym == s[S_PREPROC_FUNCTION_DEF]) {
		uint32_t base = fi_c_kids(w, node), end = w->nkids;
		for (uint32_t i = base; i < end; i++) {
			if (w->kids[i].field == f[F_NAME] && w->kids[i].sym == s[S_IDENTIFIER]) {
				fi_c_begin(w, 6);
				fi_c_capture(w, C_DEF_FUNCTION, node);
				fi_c_capture(w, C_NAME, w->kids[i].node);
			}
		}
		w->nkids = base;
	} else if (sym == s[S_TRANSLATION_UNIT]) {
		fi_c_macro_heads(w, node, 7);
	} else if (sym == s[S_PREPROC_IFDEF]) {
		fi_c_macro_heads(w, node, 8);
	} else if (sym == s[S_PREPROC_IF]) {
		fi_c_macro_heads(w, node, 9);
	} else if (sym == s[S_PREPROC_ELSE]) {
		fi_c_macro_heads(w, node, 10);
	} else if (sym == s[S_STRUCT_SPECIFIER]) {
		fi_c_pairs(w, node, 11, C_DEF_STRUCT, f[F_NAME], s[S_TYPE_IDENTIFIER], C_NAME, f[F_BODY], 0, C_BODY);
	} else if (sym == s[S_UNION_SPECIFIER]) {
		fi_c_pairs(w, node, 12, C_DEF_STRUCT, f[F_NAME], s[S_TYPE_IDENTIFIER], C_NAME, f[F_BODY], 0, C_BODY);
	} else if (sym == s[S_ENUM_SPECIFIER]) {
		fi_c_pairs(w, node, 13, C_DEF_ENUM, f[F_NAME], s[S_TYPE_IDENTIFIER], C_NAME, f[F_BODY], 0, C_BODY);
	} else if (sym == s[S_TYPE_DEFINITION]) {
		uint32_t base = fi_c_kids(w, node), end = w->nkids;
		for (uint32_t i = base; i < end; i++) {
			if (w->kids[i].field == f[F_DECLARATOR] && fi_c_wild(&w->kids[i])) {
				fi_c_begin(w, 14);
				fi_c_capture(w, C_DEF_TYPE, node);
				fi_c_capture(w, C_NAME, w->kids[i].node);
			}
		}
		w->nkids = base;
	}
}

// fi_c_walk finds the matches of C's query in the tree under root, in
// pre-order of the node each pattern starts at, patterns starting no
// deeper than max_depth (the query cursor's max start depth). It
// returns the captures in a buffer the caller frees, and their number in
// *n; NULL with *n 0 when there are none or memory ran out (*oom).
static fi_c_cap *fi_c_walk(TSNode root, const fi_c_ids *ids, uint32_t max_depth, uint32_t *n, bool *oom) {
	fi_c_walker w = {0};
	w.ids = ids;
	w.kc = ts_tree_cursor_new(root);
	TSTreeCursor c = ts_tree_cursor_new(root);
	uint32_t depth = 0;
	for (;;) {
		if (depth <= max_depth) {
			fi_c_visit(&w, ts_tree_cursor_current_node(&c));
		}
		if (w.oom) {
			break;
		}
		if (ts_tree_cursor_goto_first_child(&c)) {
			depth++;
			continue;
		}
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (!ts_tree_cursor_goto_parent(&c)) {
				goto done;
			}
			depth--;
		}
	}
done:
	ts_tree_cursor_delete(&c);
	ts_tree_cursor_delete(&w.kc);
	free(w.kids);
	*oom = w.oom;
	if (w.oom) {
		free(w.caps);
		*n = 0;
		return NULL;
	}
	*n = w.ncaps;
	return w.caps;
}
*/
import "C"

import (
	"fmt"
	"sync"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/c"
)

// cWalkTable is what the walk needs of C's grammar and query: the
// grammar's symbols and fields by name, the query's capture index of
// each C_* capture, and the query's pattern count it was written for.
type cWalkTable struct {
	ids      C.fi_c_ids
	captures [C.C_COUNT]uint32
	err      error
}

var (
	cWalkOnce sync.Once
	cWalkTab  cWalkTable
)

// cWalkPatterns is the number of patterns in queries/c.scm and
// cRepairQuery together; the walk numbers its matches' patterns as the
// query does.
const cWalkPatterns = 20

func cWalkTables(g *sitter.Language, cq *compiledQuery) *cWalkTable {
	cWalkOnce.Do(func() {
		t := &cWalkTab
		lang := (*C.TSLanguage)(*(*unsafe.Pointer)(unsafe.Pointer(g)))
		syms := []string{
			C.S_PREPROC_INCLUDE: "preproc_include", C.S_FUNCTION_DEFINITION: "function_definition",
			C.S_DECLARATION: "declaration", C.S_FUNCTION_DECLARATOR: "function_declarator",
			C.S_POINTER_DECLARATOR: "pointer_declarator", C.S_PREPROC_FUNCTION_DEF: "preproc_function_def",
			C.S_IDENTIFIER: "identifier", C.S_TRANSLATION_UNIT: "translation_unit",
			C.S_EXPRESSION_STATEMENT: "expression_statement", C.S_CALL_EXPRESSION: "call_expression",
			C.S_COMPOUND_STATEMENT: "compound_statement", C.S_PREPROC_IFDEF: "preproc_ifdef",
			C.S_PREPROC_IF: "preproc_if", C.S_PREPROC_ELSE: "preproc_else",
			C.S_STRUCT_SPECIFIER: "struct_specifier", C.S_UNION_SPECIFIER: "union_specifier",
			C.S_ENUM_SPECIFIER: "enum_specifier", C.S_TYPE_IDENTIFIER: "type_identifier",
			C.S_TYPE_DEFINITION: "type_definition", C.S_FIELD_EXPRESSION: "field_expression",
			C.S_FIELD_IDENTIFIER: "field_identifier", C.S_MACRO_TYPE_SPECIFIER: "macro_type_specifier",
			C.S_INIT_DECLARATOR: "init_declarator",
		}
		for i, name := range syms {
			cs := C.CString(name)
			t.ids.sym[i] = C.ts_language_symbol_for_name(lang, cs, C.uint32_t(len(name)), true)
			C.free(unsafe.Pointer(cs))
			if t.ids.sym[i] == 0 {
				t.err = fmt.Errorf("c walk: no node type %q in the grammar", name)
			}
		}
		fields := []string{
			C.F_DECLARATOR: "declarator", C.F_BODY: "body", C.F_NAME: "name", C.F_FUNCTION: "function",
			C.F_ARGUMENT: "argument", C.F_FIELD: "field", C.F_TYPE: "type",
		}
		for i, name := range fields {
			cs := C.CString(name)
			t.ids.field[i] = C.ts_language_field_id_for_name(lang, cs, C.uint32_t(len(name)))
			C.free(unsafe.Pointer(cs))
			if t.ids.field[i] == 0 {
				t.err = fmt.Errorf("c walk: no field %q in the grammar", name)
			}
		}
		names := [C.C_COUNT]string{
			C.C_IMPORT: "import", C.C_NAME: "name", C.C_BODY: "body", C.C_DEF_FUNCTION: "definition.function",
			C.C_DEF_STRUCT: "definition.struct", C.C_DEF_ENUM: "definition.enum", C.C_DEF_TYPE: "definition.type",
			C.C_CALL: "call", C.C_CALL_NAME: "call.name", C.C_CALL_RECEIVER: "call.receiver", C.C_REPAIR: "repair",
		}
		for i, name := range names {
			found := false
			for id := range cq.q.CaptureCount() {
				if cq.q.CaptureNameForId(id) == name {
					t.captures[i], found = id, true
				}
			}
			if !found {
				t.err = fmt.Errorf("c walk: no capture @%s in the query", name)
			}
		}
		if n := cq.q.PatternCount(); n != cWalkPatterns {
			t.err = fmt.Errorf("c walk: the query has %d patterns, the walk knows %d", n, cWalkPatterns)
		}
	})
	return &cWalkTab
}

// cNode is go-tree-sitter's Node: the C node and the tree it belongs to
// (nodeOf reads the first field; TestCWalkEqualsQuery reads nodes made
// so through the binding). The walk makes its nodes in one slice instead
// of one allocation and an entry in the tree's node cache each (0.6 of the
// kernel subset's 44 CPU-s); nothing in extract compares nodes by
// pointer, Node.Equal compares the C nodes.
type cNode struct {
	c C.TSNode
	t *sitter.Tree
}

// treeOf returns the tree n belongs to.
func treeOf(n *sitter.Node) *sitter.Tree {
	return (*cNode)(unsafe.Pointer(n)).t
}

// cWalk is C's Language.walk: the matches of cq (C's query with its
// repair patterns) in the tree under root and the nodes captured as
// @repair, as the query cursor finds them (walkQuery), found by one call
// into C. ok is false when the walk cannot stand in for the query (the
// query is not the one it was written for, or memory ran out); the
// caller runs the query then.
func cWalk(root *sitter.Node, cq *compiledQuery) (matches []*sitter.QueryMatch, repair []*sitter.Node, ok bool) {
	t := cWalkTables(c.GetLanguage(), cq)
	if t.err != nil {
		return nil, nil, false
	}
	var n C.uint32_t
	var oom C.bool
	caps := C.fi_c_walk(nodeOf(root), &t.ids, maxStartDepth, &n, &oom)
	if oom {
		return nil, nil, false
	}
	if caps == nil {
		return []*sitter.QueryMatch{}, nil, true
	}
	defer C.free(unsafe.Pointer(caps))
	all := unsafe.Slice(caps, int(n))
	tree := treeOf(root)
	// One allocation for the matches, one for their captures and one for
	// their nodes, where the cursor made a QueryMatch, a capture slice and
	// a cached node each.
	count := int(all[len(all)-1].match) + 1
	ms := make([]sitter.QueryMatch, count)
	qcs := make([]sitter.QueryCapture, len(all))
	nodes := make([]cNode, len(all))
	matches = make([]*sitter.QueryMatch, count)
	start := 0
	for i := range all {
		cp := &all[i]
		nodes[i] = cNode{c: cp.node, t: tree}
		node := (*sitter.Node)(unsafe.Pointer(&nodes[i]))
		qcs[i] = sitter.QueryCapture{Index: t.captures[cp.capture], Node: node}
		if cp.capture == C.C_REPAIR {
			repair = append(repair, node)
		}
		if i+1 < len(all) && all[i+1].match == cp.match {
			continue
		}
		m := &ms[cp.match]
		m.ID, m.PatternIndex, m.Captures = uint32(cp.match), uint16(cp.pattern), qcs[start:i+1:i+1]
		matches[cp.match] = m
		start = i + 1
	}
	return matches, repair, true
}
