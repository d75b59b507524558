package enrich

import (
	"fmt"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// The Connections and Imports lines of a prompt or an artifact.

// maxLinkFiles and maxLinkNames cap the Connections lists.
const (
	maxLinkFiles = 10
	maxLinkNames = 5
)

// connectionLines renders the Connections of a prompt or an artifact: the
// files calling in and called into through resolved calls, then, apart and
// labelled, those connected only by calls resolved by name only, at most
// maxGuesses files each way.
func connectionLines(in, out []link) []string {
	inFacts, inGuesses := splitLinks(in)
	outFacts, outGuesses := splitLinks(out)
	lines := capLinks(inFacts, "Called from", "", maxLinkFiles)
	lines = append(lines, capLinks(outFacts, "Calls into", "", maxLinkFiles)...)
	lines = append(lines, capLinks(inGuesses, "Possibly called from", " "+unverified, maxGuesses)...)
	return append(lines, capLinks(outGuesses, "Possibly calls into", " "+unverified, maxGuesses)...)
}

// capLinks renders links as "- verb `file`label: names", at most maxFiles.
func capLinks(ls []link, verb, label string, maxFiles int) []string {
	var out []string
	for i, l := range ls {
		if i == maxFiles {
			out = append(out, fmt.Sprintf("- %s %d more files%s", verb, len(ls)-i, label))
			break
		}
		names := make([]string, len(l.names))
		for j, n := range l.names {
			names[j] = codeSpan(n)
		}
		out = append(out, fmt.Sprintf("- %s %s%s: %s", verb, codeSpan(l.file), label, capList(names, maxLinkNames)))
	}
	return out
}

func importLine(im extract.Import) string {
	s := "- " + codeSpan(oneLine(im.Path))
	if im.Alias != "" {
		s += " as " + codeSpan(oneLine(im.Alias))
	}
	if len(im.Names) > 0 {
		names := make([]string, len(im.Names))
		for i, n := range im.Names {
			names[i] = codeSpan(oneLine(n.Name))
			if n.Alias != "" {
				names[i] += " as " + codeSpan(oneLine(n.Alias))
			}
		}
		s += ": " + strings.Join(names, ", ")
	}
	if im.Resolved != "" && im.Resolved != im.Path {
		s += " → " + codeSpan(oneLine(im.Resolved))
	}
	return s + fmt.Sprintf(" (line %d)", im.Line)
}
