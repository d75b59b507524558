package main

import (
	"fmt"
	"io"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/internal/lookup"
)

// printGuesses says how many of the direct calls in rows the graph
// resolved by name only (listed apart, after the resolved ones): a method
// of that name exists, the receiver's type is unknown, so the call may be
// of another method of the same name.
func printGuesses(w io.Writer, rows []lookup.Row) {
	direct, guesses := 0, 0
	for _, r := range rows {
		if r.Depth == 1 {
			direct++
			if r.Resolution == string(callgraph.Name) {
				guesses++
			}
			guesses += r.MoreGuesses
			direct += r.MoreGuesses
		}
	}
	if guesses > 0 {
		fmt.Fprintf(w, "(%d of %d direct calls resolved by name only: guesses, the receiver's type is unknown)\n", guesses, direct)
	}
}
