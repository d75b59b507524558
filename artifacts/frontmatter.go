package artifacts

// On-disk format. An artifact is the file <root>/.artifacts/<source>.md:
// a front matter block, then the markdown body.
//
//	---
//	source: "src/graph/builder.ts"
//	source_sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
//	callers_digest: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
//	extracted_at: 2026-01-02T03:04:05Z
//	tool_version: "v0.4.0"
//	status: enriched
//	---
//	# src/graph/builder.ts
//	...
//
// The block is a small subset of YAML, so other tools read it as YAML:
//
//   - lines end in "\n"; the block opens and closes with a line "---";
//   - exactly the six keys above, once each, in that order, as "key: value";
//   - source, source_sha256, callers_digest and tool_version are always
//     double-quoted strings; inside the quotes \" and \\ stand for " and \,
//     and \uXXXX (lower-case hex) for a character YAML cannot hold literally
//     (C0 and C1 controls, DEL, U+2028, U+2029, U+FEFF, U+FFFE, U+FFFF);
//     every other character is literal and the text is valid UTF-8;
//   - extracted_at is RFC 3339 in UTC, to the second, with a "Z";
//   - status is basic, partial or enriched, unquoted.
//
// The body is every byte after the closing "---\n", unchanged.
//
// decode accepts exactly what encode writes: it re-encodes what it parsed
// and compares bytes. A header that was edited by hand or damaged therefore
// reads as ErrMalformed instead of as data half trusted, and encode(decode(b))
// reproduces b's header byte for byte.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"
	"unicode/utf8"
)

// ErrMalformed is wrapped by every error about an artifact whose front
// matter is not in the form Write produces. Such an artifact is not trusted;
// writing it again repairs it.
var ErrMalformed = errors.New("malformed front matter")

// Meta is an artifact's front matter: what the artifact was made from, so
// that its freshness is decidable without reading the body.
type Meta struct {
	Source      string // slash path of the source file relative to the workspace root
	Fingerprint        // the source and callers the artifact was made from
	ExtractedAt time.Time
	ToolVersion string // version of fileinfo that wrote the artifact
	Status      Status // Basic, Partial or Enriched
}

const delim = "---\n"

// keys are the front matter keys in the order they are written.
var keys = [...]string{"source", "source_sha256", "callers_digest", "extracted_at", "tool_version", "status"}

// encode returns m's front matter block. It fails if a string is not valid
// UTF-8, if m.Status is not Basic, Partial or Enriched, or if m.ExtractedAt is outside
// the years 0 to 9999, which RFC 3339 cannot write. Sub-second precision and
// the time zone are dropped: the time is written in UTC to the second.
func encode(m Meta) ([]byte, error) {
	if m.Status != Basic && m.Status != Partial && m.Status != Enriched {
		return nil, fmt.Errorf("status %q: want %s, %s or %s", m.Status, Basic, Partial, Enriched)
	}
	t := m.ExtractedAt.UTC()
	if y := t.Year(); y < 0 || y > 9999 {
		return nil, fmt.Errorf("extracted_at %v: year outside 0..9999", m.ExtractedAt)
	}
	b := make([]byte, 0, 256+len(m.Source))
	b = append(b, delim...)
	for i, s := range [...]string{m.Source, m.SourceSHA256, m.CallersDigest} {
		var err error
		if b, err = appendQuoted(append(b, keys[i]+": "...), s); err != nil {
			return nil, fmt.Errorf("%s: %w", keys[i], err)
		}
		b = append(b, '\n')
	}
	b = append(b, keys[3]+": "...)
	b = append(t.AppendFormat(b, time.RFC3339), '\n')
	b, err := appendQuoted(append(b, keys[4]+": "...), m.ToolVersion)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", keys[4], err)
	}
	b = append(b, '\n')
	b = append(b, keys[5]+": "...)
	b = append(b, m.Status...)
	b = append(b, '\n')
	return append(b, delim...), nil
}

// decode parses the front matter at the start of b and returns it with the
// body that follows. Every error wraps ErrMalformed.
func decode(b []byte) (Meta, []byte, error) {
	rest, ok := bytes.CutPrefix(b, []byte(delim))
	if !ok {
		return Meta{}, nil, fmt.Errorf("%w: no opening %q", ErrMalformed, "---")
	}
	var vals [len(keys)]string
	for i, k := range keys {
		line, after, ok := bytes.Cut(rest, []byte("\n"))
		if !ok {
			return Meta{}, nil, fmt.Errorf("%w: line %d: unterminated", ErrMalformed, i+2)
		}
		v, ok := bytes.CutPrefix(line, []byte(k+": "))
		if !ok {
			return Meta{}, nil, fmt.Errorf("%w: line %d: want key %q", ErrMalformed, i+2, k)
		}
		vals[i], rest = string(v), after
	}
	rest, ok = bytes.CutPrefix(rest, []byte(delim))
	if !ok {
		return Meta{}, nil, fmt.Errorf("%w: line %d: want closing %q", ErrMalformed, len(keys)+2, "---")
	}

	var m Meta
	for i, dst := range [...]*string{&m.Source, &m.SourceSHA256, &m.CallersDigest, nil, &m.ToolVersion} {
		if dst == nil {
			continue
		}
		s, err := strconv.Unquote(vals[i])
		if err != nil || vals[i][0] != '"' {
			return Meta{}, nil, fmt.Errorf("%w: %s: not a double-quoted string", ErrMalformed, keys[i])
		}
		*dst = s
	}
	t, err := time.Parse(time.RFC3339, vals[3])
	if err != nil {
		return Meta{}, nil, fmt.Errorf("%w: %s: %v", ErrMalformed, keys[3], err)
	}
	m.ExtractedAt = t
	m.Status = Status(vals[5])

	enc, err := encode(m)
	if err != nil {
		return Meta{}, nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if !bytes.Equal(enc, b[:len(b)-len(rest)]) {
		return Meta{}, nil, fmt.Errorf("%w: not in the form fileinfo writes (quoting, escapes or time format)", ErrMalformed)
	}
	return m, rest, nil
}

// appendQuoted appends s as a YAML double-quoted scalar in the one form
// decode accepts.
func appendQuoted(b []byte, s string) ([]byte, error) {
	if !utf8.ValidString(s) {
		return nil, errors.New("not valid UTF-8")
	}
	b = append(b, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case mustEscape(r):
			b = append(b, `\u`...)
			for shift := 12; shift >= 0; shift -= 4 {
				b = append(b, "0123456789abcdef"[r>>shift&0xf])
			}
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"'), nil
}

// mustEscape reports whether r cannot appear literally in a one-line YAML
// double-quoted scalar: it is outside YAML's printable set, or a line break
// in YAML 1.1 (U+0085, U+2028, U+2029), or a byte order mark. All such
// runes are in the Basic Multilingual Plane.
func mustEscape(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) ||
		r == 0x2028 || r == 0x2029 || r == 0xfeff || r == 0xfffe || r == 0xffff
}

// readMeta reads the front matter of key's artifact, the file name in r,
// stopping at the end of the front matter.
func readMeta(r *os.Root, name, key string) (Meta, error) {
	f, err := openRegular(r, name)
	if err != nil {
		return Meta{}, err
	}
	defer f.Close()
	head, err := readHead(f)
	if err != nil {
		return Meta{}, err
	}
	m, _, err := decode(head)
	if err == nil {
		err = checkSource(m, key)
	}
	return m, err
}

// maxHead bounds the front matter read by readMeta: a 4 KB path with every
// character escaped, and room to spare.
const maxHead = 64 << 10

// readHead reads from rd up to the end of the front matter (its
// len(keys)+2 lines), or maxHead bytes, or EOF.
func readHead(rd io.Reader) ([]byte, error) {
	b := make([]byte, 512)
	n, lines := 0, 0
	for {
		k, err := rd.Read(b[n:])
		for i := n; i < n+k; i++ {
			if b[i] == '\n' {
				if lines++; lines == len(keys)+2 {
					return b[:i+1], nil
				}
			}
		}
		n += k
		switch {
		case err == io.EOF:
			return b[:n], nil
		case err != nil:
			return nil, err
		case n == len(b) && n >= maxHead:
			return b[:n], nil
		case n == len(b):
			b = append(b, make([]byte, len(b))...)
		}
	}
}

func checkSource(m Meta, key string) error {
	if m.Source != key {
		return fmt.Errorf("%w: records source %q", ErrMalformed, m.Source)
	}
	return nil
}
