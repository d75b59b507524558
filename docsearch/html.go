package docsearch

import (
	"strings"

	"golang.org/x/net/html"
)

// htmlToMarkdown converts an HTML page to the markdown the chunker reads:
// h1-h6 become ATX headings, pre becomes a fenced code block, block
// elements and br break lines, and script, style, template, svg, noscript
// and head (apart from its title) are dropped. It returns the page's
// <title> too. Line numbers of the result are not those of the source.
func htmlToMarkdown(src string) (md, title string) {
	z := html.NewTokenizer(strings.NewReader(src))
	var b strings.Builder
	skip := 0 // depth inside dropped elements
	pre := 0  // depth inside pre
	inTitle := false
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
			if skip > 0 {
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
			name, _ := z.TagName()
			tag := string(name)
			start := tt != html.EndTagToken
			switch tag {
			case "script", "style", "template", "svg", "noscript", "head":
				if tt == html.StartTagToken {
					skip++
				} else if tt == html.EndTagToken && skip > 0 {
					skip--
				}
			case "title":
				inTitle = tt == html.StartTagToken
				continue
			}
			if skip > 0 || inTitle {
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
