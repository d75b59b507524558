package artifacts

import (
	"errors"
	"strings"
	"testing"
	"time"
)

var when = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func sampleMeta() Meta {
	return Meta{
		Source: "src/graph/builder.ts",
		Fingerprint: Fingerprint{
			SourceSHA256:  SourceDigest([]byte("test")),
			CallersDigest: CallersDigest(nil),
		},
		ExtractedAt: when,
		ToolVersion: "v0.4.0",
		Status:      Enriched,
	}
}

const sampleHead = `---
source: "src/graph/builder.ts"
source_sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
callers_digest: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
extracted_at: 2026-01-02T03:04:05Z
tool_version: "v0.4.0"
status: enriched
---
`

func TestEncodeFormat(t *testing.T) {
	got, err := encode(sampleMeta())
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != sampleHead {
		t.Errorf("encode:\n%s\nwant:\n%s", got, sampleHead)
	}
}

func TestEncodeDecode(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Meta)
		line string // a line the header must contain
	}{
		{"sample", func(*Meta) {}, `source: "src/graph/builder.ts"`},
		{"basic", func(m *Meta) { m.Status = Basic }, "status: basic"},
		{"partial", func(m *Meta) { m.Status = Partial }, "status: partial"},
		{"empty strings", func(m *Meta) { *m = Meta{Status: Basic} }, `source_sha256: ""`},
		{"quote and backslash", func(m *Meta) { m.Source = `a "b" \c.go` }, `source: "a \"b\" \\c.go"`},
		{"newline", func(m *Meta) { m.Source = "a\nb.go" }, `source: "a\u000ab.go"`},
		{"controls", func(m *Meta) { m.ToolVersion = "\x00\t\r\x7f\u0085\u2028\ufeff\uffff" },
			`tool_version: "\u0000\u0009\u000d\u007f\u0085\u2028\ufeff\uffff"`},
		{"yaml lookalikes", func(m *Meta) { m.Source = "- a: #b: ---" }, `source: "- a: #b: ---"`},
		{"non-ASCII", func(m *Meta) { m.Source = "src/ünï/😀.go" }, `source: "src/ünï/😀.go"`},
		{"year 0", func(m *Meta) { m.ExtractedAt = time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC) }, "extracted_at: 0000-01-01T00:00:00Z"},
		{"year 9999", func(m *Meta) { m.ExtractedAt = time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC) }, "extracted_at: 9999-12-31T23:59:59Z"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := sampleMeta()
			tc.edit(&m)
			head, err := encode(m)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(head), "\n"+tc.line+"\n") {
				t.Errorf("header lacks line %s:\n%s", tc.line, head)
			}
			got, body, err := decode(append(head, "# body\n"...))
			if err != nil {
				t.Fatalf("decode: %v\n%s", err, head)
			}
			if got != m {
				t.Errorf("decode = %+v, want %+v", got, m)
			}
			if string(body) != "# body\n" {
				t.Errorf("body = %q", body)
			}
		})
	}
}

func TestEncodeRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Meta)
	}{
		{"no status", func(m *Meta) { m.Status = "" }},
		{"computed status", func(m *Meta) { m.Status = Stale }},
		{"invalid UTF-8", func(m *Meta) { m.Source = "a\xffb" }},
		{"year 10000", func(m *Meta) { m.ExtractedAt = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) }},
		{"year -1", func(m *Meta) { m.ExtractedAt = time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := sampleMeta()
			tc.edit(&m)
			if head, err := encode(m); err == nil {
				t.Errorf("encode succeeded:\n%s", head)
			}
		})
	}
}

func TestDecodeMalformed(t *testing.T) {
	for _, tc := range []struct {
		name, old, new string
	}{
		{"no front matter", "---\nsource", "source"},
		{"CRLF", "\n", "\r\n"},
		{"missing key", "tool_version: \"v0.4.0\"\n", ""},
		{"keys swapped", "status: enriched", "statuz: enriched"},
		{"unquoted string", `"v0.4.0"`, "v0.4.0"},
		{"single quotes", `"v0.4.0"`, "'v0.4.0'"},
		{"other escape", `"v0.4.0"`, `"v0.4.0\n"`},
		{"needless escape", `"v0.4.0"`, `"v0.4.\u0030"`},
		{"upper-case hex escape", `"v0.4.0"`, `"v0.4.0\u000A"`},
		{"quoted status", "status: enriched", `status: "enriched"`},
		{"computed status", "status: enriched", "status: stale"},
		{"offset time", "05Z", "05+00:00"},
		{"fractional time", "05Z", "05.5Z"},
		{"bad time", "2026-01-02", "2026-13-02"},
		{"two spaces", "status: enriched", "status:  enriched"},
		{"trailing space", "status: enriched", "status: enriched "},
		{"no closing", "enriched\n---\n", "enriched\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := strings.Replace(sampleHead, tc.old, tc.new, -1) + "# body\n"
			if b == sampleHead+"# body\n" {
				t.Fatalf("%q not in the sample", tc.old)
			}
			if m, _, err := decode([]byte(b)); !errors.Is(err, ErrMalformed) {
				t.Errorf("decode(%q) = %+v, %v; want ErrMalformed", b, m, err)
			}
		})
	}
}
