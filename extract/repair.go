package extract

// Parsing again: the C repair rounds and the other reading of a source.

import (
	"bytes"
	"context"

	sitter "github.com/smacker/go-tree-sitter"
)

// repairTree parses f again while its language's repair hook finds
// misread places, each round with those places rewritten (see
// lang_c_macros.go), and returns the last tree; f.src stays the original
// text, f.macroCalls gets the rewritten places. ok is false when a parse
// failed: the parser's state is suspect, and the tree before it is
// returned.
//
// Each round walks the tree with the language's whole query, cq, which
// holds the repair hook's patterns: matches are the matches of the round
// that found nothing to repair, for run, so that the last tree is not
// walked twice; nil when the rounds ran out, or the walk ran out of
// budget (f.overBudget).
func repairTree(p *sitter.Parser, tree *sitter.Tree, f *fileInfo, qc *sitter.QueryCursor, cq *compiledQuery) (_ *sitter.Tree, matches []*sitter.QueryMatch, ok bool) {
	var buf []byte
	skip := map[uint32]bool{}
	for range maxRepairRounds {
		var nodes []*sitter.Node
		matches, nodes = walkQuery(tree.RootNode(), qc, cq, f)
		if f.overBudget {
			return tree, nil, true
		}
		sites := f.lang.repair(f, tree.RootNode(), nodes, skip)
		if len(sites) == 0 {
			return tree, matches, true
		}
		matches = nil
		if buf == nil {
			buf = bytes.Clone(f.src)
		}
		rewriteMacros(buf, sites)
		for _, s := range sites {
			skip[s.start] = true
			// Same length: the edit moves nothing, it marks what changed
			// so that the parse reuses the rest of the old tree.
			tree.Edit(sitter.EditInput{StartIndex: s.start, OldEndIndex: s.end, NewEndIndex: s.end,
				StartPoint: s.startPoint, OldEndPoint: s.endPoint, NewEndPoint: s.endPoint})
		}
		next, err := p.ParseCtx(context.Background(), tree, buf)
		if err != nil {
			return tree, nil, false
		}
		tree.Close()
		tree = next
		f.macroCalls = append(f.macroCalls, sites...)
	}
	return tree, nil, true
}

// reparse parses lang's other reading of src (Language.reparse) and
// returns whichever of the two trees has fewer errors, closing the other,
// with the text it was parsed from. A parse that fails returns tree
// unchanged, and ok false: the parser's state is suspect after it.
func reparse(p *sitter.Parser, lang *Language, src []byte, tree *sitter.Tree) (_ *sitter.Tree, parsed []byte, ok bool) {
	alt := lang.reparse(src)
	if alt == nil {
		return tree, src, true
	}
	if lang.serial {
		lang.parseMu.Lock()
		defer lang.parseMu.Unlock()
	}
	t2, err := p.ParseCtx(context.Background(), nil, alt)
	if err != nil || t2 == nil {
		return tree, src, err == nil
	}
	if errorCost(t2.RootNode()) < errorCost(tree.RootNode()) {
		tree.Close()
		return t2, alt, true
	}
	t2.Close()
	return tree, src, true
}

// blankRounds bounds how many times a file's error lines are blanked:
// an error recovered from often shows the next one.
const blankRounds = 3

// recoverErrors parses src, the text tree was parsed from, with its
// error lines blanked (blankErrorLines), again for the errors of that
// parse while they lessen, and returns the tree with the fewest errors,
// closing the others. A parse that fails ends the rounds, with ok false:
// the parser's state is suspect after it.
func recoverErrors(p *sitter.Parser, lang *Language, src []byte, tree *sitter.Tree) (_ *sitter.Tree, ok bool) {
	if lang.serial {
		lang.parseMu.Lock()
		defer lang.parseMu.Unlock()
	}
	cost := errorCost(tree.RootNode())
	for range blankRounds {
		alt := blankErrorLines(src, tree.RootNode())
		if alt == nil {
			return tree, true
		}
		next, err := p.ParseCtx(context.Background(), nil, alt)
		if err != nil || next == nil {
			return tree, err == nil
		}
		c := errorCost(next.RootNode())
		if c >= cost {
			next.Close()
			return tree, true
		}
		tree.Close()
		tree, src, cost = next, alt, c
		if cost == 0 {
			break
		}
	}
	return tree, true
}

// errorCost measures how much of a tree the parser could not make sense
// of: the bytes under ERROR nodes, plus one for each MISSING node. Only
// subtrees with errors are visited.
func errorCost(root *sitter.Node) int {
	if !root.HasError() {
		return 0
	}
	c := sitter.NewTreeCursor(root)
	defer c.Close()
	cost := 0
	for {
		n := c.CurrentNode()
		descend := false
		switch {
		case n.IsMissing():
			cost++
		case n.IsError():
			cost += int(n.EndByte()-n.StartByte()) + 1
		case n.HasError():
			descend = true
		}
		if descend && c.GoToFirstChild() {
			continue
		}
		for !c.GoToNextSibling() {
			if !c.GoToParent() {
				return cost
			}
		}
	}
}
