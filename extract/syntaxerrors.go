package extract

// The syntax errors of a tree, found by one call into C.

/*
#include <stdbool.h>
#include <stdint.h>

typedef struct TSTree TSTree;
typedef struct { uint32_t row, column; } TSPoint;
typedef struct { uint32_t context[4]; const void *id; const TSTree *tree; } TSNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;

TSTreeCursor ts_tree_cursor_new(TSNode);
void ts_tree_cursor_delete(TSTreeCursor *);
TSNode ts_tree_cursor_current_node(const TSTreeCursor *);
bool ts_tree_cursor_goto_first_child(TSTreeCursor *);
bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *);
bool ts_tree_cursor_goto_parent(TSTreeCursor *);
bool ts_node_is_missing(TSNode);
bool ts_node_has_error(TSNode);
uint16_t ts_node_symbol(TSNode);
const char *ts_node_type(TSNode);
TSPoint ts_node_start_point(TSNode);
TSPoint ts_node_end_point(TSNode);

// fi_error is one ERROR node, or a MISSING one with its type.
typedef struct {
	TSPoint start, end;
	const char *missing;
} fi_error;

// fi_syntax_errors writes the first max ERROR and MISSING nodes of the
// tree under root, in document order, to out and returns their count. It
// descends only into nodes that contain an error.
static uint32_t fi_syntax_errors(TSNode root, fi_error *out, uint32_t max) {
	if (!ts_node_has_error(root)) {
		return 0;
	}
	TSTreeCursor c = ts_tree_cursor_new(root);
	uint32_t n = 0;
	while (n < max) {
		TSNode node = ts_tree_cursor_current_node(&c);
		bool descend = false;
		if (ts_node_is_missing(node)) {
			out[n].start = ts_node_start_point(node);
			out[n].end = ts_node_end_point(node);
			out[n].missing = ts_node_type(node);
			n++;
		} else if (ts_node_has_error(node)) {
			if (ts_node_symbol(node) == (uint16_t)-1) {
				out[n].start = ts_node_start_point(node);
				out[n].end = ts_node_end_point(node);
				out[n].missing = 0;
				n++;
			}
			descend = true;
		}
		if (descend && ts_tree_cursor_goto_first_child(&c)) {
			continue;
		}
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (!ts_tree_cursor_goto_parent(&c)) {
				goto done;
			}
		}
	}
done:
	ts_tree_cursor_delete(&c);
	return n;
}
*/
import "C"

import (
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// maxErrors bounds the syntax errors of a File.
const maxErrors = 100

// syntaxErrors returns the ERROR and MISSING ranges of the tree under
// root in document order, visiting only subtrees that contain an error.
// At most maxErrors are returned; never nil.
//
// The walk is one call into C: walked from Go, every node it visits cost
// four calls (the node, missing?, error?, a cursor step) and an entry in
// the tree's node cache, and on a file full of macro errors it visits
// every top-level node: 1.4 % of the CPU time of the call graph of
// Linux's fs/, include/, kernel/, mm/ and drivers/net/ (docs/bigrepos.md).
func syntaxErrors(root *sitter.Node) []SyntaxError {
	errs := []SyntaxError{}
	var buf [maxErrors]C.fi_error
	n := int(C.fi_syntax_errors(nodeOf(root), &buf[0], maxErrors))
	for _, e := range buf[:n] {
		msg := "syntax error"
		if e.missing != nil {
			msg = "missing " + C.GoString(e.missing)
		}
		errs = append(errs, SyntaxError{
			StartLine: int(e.start.row) + 1, StartColumn: int(e.start.column) + 1,
			EndLine: int(e.end.row) + 1, EndColumn: int(e.end.column) + 1,
			Message: msg,
		})
	}
	return errs
}

// nodeOf returns the C node of n. go-tree-sitter does not expose it; it
// is the first field of the Node struct (TestNodeOf fails if a new
// version of the binding moves it).
func nodeOf(n *sitter.Node) C.TSNode {
	return *(*C.TSNode)(unsafe.Pointer(n))
}
