package docsearch

import (
	"regexp"
	"strings"
	"unicode"
)

// firstTitle returns a document's title: its first real heading (one
// with words once images and link targets are dropped), or an HTML <h1>
// in markdown that comes before it, else for plain text a short first
// line. The first heading wins over a later level-1 one: a README that
// opens with "## Installation" and ends with "# License" is not titled
// "License". A page converted from HTML is titled by its first level-1
// heading: what comes before it is navigation.
func firstTitle(secs []section, f format, page bool) string {
	for _, s := range secs {
		if page && s.level == 1 && hasWords(s.heading) {
			return s.heading
		}
	}
	for _, s := range secs {
		if s.level == 0 {
			if f == formatMarkdown {
				for _, b := range s.blocks {
					if h := htmlH1(b.text); h != "" && !b.code {
						return h
					}
				}
			}
			continue
		}
		if hasWords(s.heading) {
			return s.heading
		}
	}
	if f == formatText && len(secs) > 0 && len(secs[0].blocks) > 0 {
		first, _, _ := strings.Cut(secs[0].blocks[0].text, "\n")
		if first = strings.TrimSpace(first); len(first) <= 80 {
			return first
		}
	}
	return ""
}

var (
	h1Pattern  = regexp.MustCompile(`(?is)<h1\b[^>]*>(.*?)</h1\s*>`)
	tagPattern = regexp.MustCompile(`(?s)<[^<>]*>`)
)

// htmlH1 returns the text of the first <h1> element in a block of
// markdown, without its tags, or "".
func htmlH1(text string) string {
	m := h1Pattern.FindStringSubmatch(text)
	if m == nil {
		return ""
	}
	t := strings.Join(strings.Fields(plainInline(tagPattern.ReplaceAllString(m[1], " "))), " ")
	if !hasWords(t) || len(t) > 120 {
		return ""
	}
	return t
}

// hasWords reports whether s holds a letter.
func hasWords(s string) bool { return strings.IndexFunc(s, unicode.IsLetter) >= 0 }

// notProse matches what a line of markdown may hold besides prose: images
// and links, inline or by reference (badges), bare URLs and HTML tags.
var notProse = regexp.MustCompile(`!?\[[^\]]*\](?:\([^)]*\)|\[[^\]]*\])?|\bhttps?://\S+|<[^<>]*>`)

// proseOf returns the lines of a paragraph that hold prose: a line of
// nothing but badges, links, images or HTML tags is dropped ("link-only"
// lines). Images nested in links ([![ci](badge)](url)) count as links.
func proseOf(text string) string {
	if !strings.ContainsAny(text, "[<:") {
		return text
	}
	var keep []string
	for ln := range strings.Lines(text) {
		rest := ln
		for { // innermost first: a badge is an image inside a link
			next := notProse.ReplaceAllString(rest, "")
			if next == rest {
				break
			}
			rest = next
		}
		if hasWords(rest) {
			keep = append(keep, ln)
		}
	}
	return strings.Join(keep, "")
}
