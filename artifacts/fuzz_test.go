package artifacts

import (
	"bytes"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzFrontMatter checks the two promises of the front matter format:
// any Meta with UTF-8 strings and a time in years 0..9999 (UTC, whole
// seconds) decodes to itself, and decoding arbitrary bytes never panics and
// either fails or gives a header that encodes back to the same bytes. Run
// it for a minute after touching frontmatter.go:
//
//	go test ./artifacts -run '^$' -fuzz '^FuzzFrontMatter$' -fuzztime 60s
func FuzzFrontMatter(f *testing.F) {
	m := sampleMeta()
	f.Add(m.Source, m.SourceSHA256, m.CallersDigest, m.ToolVersion, m.ExtractedAt.Unix(), uint8(1), []byte(sampleHead+"# body\n"))
	f.Add("", "", "", "", int64(0), uint8(0), []byte(""))
	f.Add("a\"\\\n\u2028.go", "\xff", "\x00", "v\t1", int64(-62167219200), uint8(2), []byte("---\n---\n"))
	f.Add("x", "y", "z", "w", int64(253402300800), uint8(1), []byte(sampleHead[:40]))
	f.Fuzz(func(t *testing.T, source, sha, callers, version string, sec int64, status uint8, raw []byte) {
		m := Meta{
			Source:      source,
			Fingerprint: Fingerprint{SourceSHA256: sha, CallersDigest: callers},
			ExtractedAt: time.Unix(sec, 0).UTC(),
			ToolVersion: version,
			Status:      [...]Status{Basic, Enriched, Partial}[status%3],
		}
		encodable := utf8.ValidString(source) && utf8.ValidString(sha) && utf8.ValidString(callers) &&
			utf8.ValidString(version) && m.ExtractedAt.Year() >= 0 && m.ExtractedAt.Year() <= 9999
		head, err := encode(m)
		switch {
		case err != nil && encodable:
			t.Fatalf("encode(%+v): %v", m, err)
		case err == nil && !encodable:
			t.Fatalf("encode(%+v) succeeded:\n%s", m, head)
		case err == nil:
			got, body, err := decode(append(head, raw...))
			if err != nil {
				t.Fatalf("decode(encode(%+v)): %v\n%s", m, err, head)
			}
			if got != m || !bytes.Equal(body, raw) {
				t.Fatalf("decode(encode(%+v)) = %+v, body %q", m, got, body)
			}
		}

		got, body, err := decode(raw)
		if err != nil {
			return
		}
		again, err := encode(got)
		if err != nil {
			t.Fatalf("decode(%q) = %+v, which does not encode: %v", raw, got, err)
		}
		if !bytes.Equal(append(again, body...), raw) {
			t.Fatalf("decode(%q) = %+v, which encodes to %q", raw, got, again)
		}
	})
}
