package docsearch

import (
	"strings"

	"golang.org/x/net/html"
)

// htmlToMarkdown converts an HTML page to the markdown the chunker reads:
// h1-h6 become ATX headings, pre becomes a fenced code block, block
// elements and br break lines, and script, style, template, svg,
// noscript, nav (a site's menus and tables of contents, the same on every
// page), button (controls: rustdoc's "Copy item path" was in every
// title) and head (apart from its title) are dropped. A page with a main
// element (or role="main") is read only inside it: what is around it is
// the site's chrome (skip links, top bars, hidden help, footers), which
// on rustdoc and mdBook pages made the first chunk and summary of every
// page alike. A main with no text falls back to the whole page. It
// returns the page's <title> too. Line numbers of the result are not
// those of the source.
func htmlToMarkdown(src string) (md, title string) {
	if hasMain(src) {
		if md, title := convertHTML(src, true); strings.TrimSpace(md) != "" {
			return md, title
		}
	}
	return convertHTML(src, false)
}

// hasMain reports whether src may have a main element: a quick look for
// its start tag or the attribute before tokenizing.
func hasMain(src string) bool {
	for _, m := range []string{"<main", "<MAIN", `role="main"`, `role='main'`} {
		for i := 0; ; {
			j := strings.Index(src[i:], m)
			if j < 0 {
				break
			}
			i += j + len(m)
			if m[0] != '<' || i < len(src) && strings.IndexByte(" \t\r\n>/", src[i]) >= 0 {
				return true
			}
		}
	}
	return false
}

// convertHTML is htmlToMarkdown, reading only inside the main element
// when onlyMain is set.
func convertHTML(src string, onlyMain bool) (md, title string) {
	z := html.NewTokenizer(strings.NewReader(src))
	var b strings.Builder
	skip := 0 // depth inside dropped elements
	pre := 0  // depth inside pre
	inTitle := false
	// mainTag is the tag of the main element while inside it, mainDepth
	// the nesting of that tag there; done is set once it has closed.
	mainTag, mainDepth, done := "", 0, false
	outside := func() bool { return onlyMain && (mainTag == "" || done) }
	newline := func(n int) {
		s := b.String()
		have := len(s) - len(strings.TrimRight(s, "\n"))
		if len(s) == 0 {
			return
		}
		for ; have < n; have++ {
			b.WriteByte('\n')
		}
	}
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return strings.TrimSpace(b.String()) + "\n", strings.TrimSpace(title)
		case html.TextToken:
			t := string(z.Text())
			if inTitle {
				title += t
				continue
			}
			if skip > 0 || outside() {
				continue
			}
			if pre > 0 {
				b.WriteString(t)
				continue
			}
			t = strings.Join(strings.Fields(t), " ")
			if t == "" {
				continue
			}
			if s := b.String(); len(s) > 0 && !strings.HasSuffix(s, "\n") && !strings.HasSuffix(s, " ") {
				b.WriteByte(' ')
			}
			b.WriteString(t)
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			tag := string(name)
			start := tt != html.EndTagToken
			if onlyMain && !done {
				switch {
				case mainTag == "" && tt == html.StartTagToken && (tag == "main" || hasAttr && roleMain(z)):
					mainTag, mainDepth = tag, 1
				case mainTag == tag && tt == html.StartTagToken:
					mainDepth++
				case mainTag == tag && tt == html.EndTagToken:
					if mainDepth--; mainDepth == 0 {
						done = true
					}
				}
			}
			switch tag {
			case "script", "style", "template", "svg", "noscript", "head", "nav", "button":
				if tt == html.StartTagToken {
					skip++
				} else if tt == html.EndTagToken && skip > 0 {
					skip--
				}
			case "title":
				inTitle = tt == html.StartTagToken
				continue
			}
			if skip > 0 || inTitle || outside() {
				continue
			}
			switch tag {
			case "h1", "h2", "h3", "h4", "h5", "h6":
				newline(2)
				if start {
					b.WriteString(strings.Repeat("#", int(tag[1]-'0')) + " ")
				}
			case "pre":
				newline(1)
				if start {
					pre++
					b.WriteString("```\n")
				} else if pre > 0 {
					pre--
					newline(1)
					b.WriteString("```\n\n")
				}
			case "p", "div", "section", "article", "table", "ul", "ol", "dl", "blockquote", "header", "footer", "main", "nav":
				newline(2)
			case "li", "tr", "dt", "dd", "br":
				newline(1)
			}
		}
	}
}

// roleMain reports whether the current tag's attributes include
// role="main".
func roleMain(z *html.Tokenizer) bool {
	for {
		k, v, more := z.TagAttr()
		if string(k) == "role" && strings.EqualFold(string(v), "main") {
			return true
		}
		if !more {
			return false
		}
	}
}
