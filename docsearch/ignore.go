package docsearch

// The docs scope passes over what git ignores, as the extractor's walk
// does: the .gitignore file of every directory it enters and, at the
// root, .git/info/exclude. The rules read are git's (gitignore(5)):
//
//   - blank lines and lines starting with '#' match nothing; "\#" and
//     "\!" start a pattern with a literal '#' or '!';
//   - trailing spaces are dropped unless escaped with '\';
//   - a leading '!' re-includes what an earlier pattern excluded;
//   - a trailing '/' matches directories only;
//   - a pattern with a '/' before its end is anchored to the directory
//     of its file (a leading '/' only anchors); one without matches a
//     base name at any depth below it;
//   - '*', '?' and '[...]' match within one path element (path.Match,
//     with "[!" read as "[^"); "**" as an element matches any number of
//     elements.
//
// In one file the last matching pattern decides; a deeper file decides
// before a shallower one. A malformed pattern matches nothing.

import (
	"path"
	"strings"
)

// ignoreRules are the patterns of one ignore file.
type ignoreRules struct {
	dir      string // the directory governed: a slash path from the root, "" for the root
	file     string // the file, for reasons
	patterns []ignorePattern
}

type ignorePattern struct {
	negate, dirOnly, anchored bool
	elems                     []string // path.Match patterns, or "**"
}

// parseIgnore reads text, the ignore file of dir ("" for the root).
func parseIgnore(dir, text string) *ignoreRules {
	rules := &ignoreRules{dir: dir, file: path.Join(dir, ".gitignore")}
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		for strings.HasSuffix(line, " ") && !strings.HasSuffix(line, "\\ ") {
			line = line[:len(line)-1]
		}
		if line == "" || line[0] == '#' {
			continue
		}
		var p ignorePattern
		if line[0] == '!' {
			p.negate, line = true, line[1:]
		}
		if strings.HasSuffix(line, "/") {
			p.dirOnly, line = true, strings.TrimRight(line, "/")
		}
		if strings.Contains(line, "/") {
			p.anchored, line = true, strings.TrimPrefix(line, "/")
		}
		if line == "" {
			continue
		}
		p.elems = strings.Split(strings.ReplaceAll(line, "[!", "[^"), "/")
		rules.patterns = append(rules.patterns, p)
	}
	return rules
}

// ignoreStack is the ignore files that apply in a directory, outermost
// first.
type ignoreStack []*ignoreRules

// ignored returns the file whose rules ignore p (a slash path from the
// root; dir if p is a directory), or nil when p is not ignored.
func (s ignoreStack) ignored(p string, dir bool) *ignoreRules {
	for i := len(s) - 1; i >= 0; i-- {
		rules := s[i]
		rel := p
		if rules.dir != "" {
			var ok bool
			if rel, ok = strings.CutPrefix(p, rules.dir+"/"); !ok {
				continue
			}
		}
		elems := strings.Split(rel, "/")
		for j := len(rules.patterns) - 1; j >= 0; j-- {
			pat := &rules.patterns[j]
			if pat.dirOnly && !dir {
				continue
			}
			var hit bool
			if pat.anchored {
				hit = matchElems(pat.elems, elems)
			} else {
				hit = matchElem(pat.elems[0], elems[len(elems)-1])
			}
			if hit {
				if pat.negate {
					return nil
				}
				return rules
			}
		}
	}
	return nil
}

// matchElems matches path elements against pattern elements, "**"
// matching any number of them.
func matchElems(pat, elems []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for k := 0; k <= len(elems); k++ {
				if matchElems(pat[1:], elems[k:]) {
					return true
				}
			}
			return false
		}
		if len(elems) == 0 || !matchElem(pat[0], elems[0]) {
			return false
		}
		pat, elems = pat[1:], elems[1:]
	}
	return len(elems) == 0
}

func matchElem(pat, name string) bool {
	ok, err := path.Match(pat, name)
	return ok && err == nil
}
