package extract

/*
#include <stdint.h>
typedef struct TSQueryCursor TSQueryCursor;
void ts_query_cursor_set_max_start_depth(TSQueryCursor *self, uint32_t max_start_depth);
void ts_query_cursor_set_match_limit(TSQueryCursor *self, uint32_t limit);
*/
import "C"

import (
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// Bounds on one query over one tree. tree-sitter's cursor keeps a state
// for every pattern that may still match around each node it is inside,
// so on a deep tree its work grows with the square of the depth: 100,000
// nested calls took minutes in a single step, past any deadline checked
// between steps. Patterns start at most maxStartDepth levels below the
// root (real code stays under about 200: ten levels of nested callbacks
// are about 50), and at most maxInProgress matches are under way at once,
// the oldest dropped past that.
const (
	maxStartDepth = 512
	maxInProgress = 4096
)

// limitCursor sets the bounds on qc. go-tree-sitter does not expose
// these two settings of the C API, so the cursor's C pointer, the first
// field of its struct, is read directly; TestCursorLimits fails if a
// new version of the binding moves it.
func limitCursor(qc *sitter.QueryCursor) {
	c := (*C.TSQueryCursor)(*(*unsafe.Pointer)(unsafe.Pointer(qc)))
	C.ts_query_cursor_set_max_start_depth(c, maxStartDepth)
	C.ts_query_cursor_set_match_limit(c, maxInProgress)
}
