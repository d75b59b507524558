package enrich

// The record. An enriched artifact ends with the prose it shows, as
// report_file_info's arguments in JSON, inside an HTML comment that
// markdown viewers hide:
//
//	<!-- fileinfo:report v1
//	{
//	  "path": "lib/store.go",
//	  "overview": "Defines Store, ...",
//	  "functions": [
//	    {
//	      "name": "NewStore",
//	      "purpose": "Returns an empty Store.",
//	      "implementation": "1. Allocate a Store.\n2. Return it."
//	    }
//	  ],
//	  "classes": [...],
//	  "digests": {"source": {"lib.NewStore": "3f2a…", "": "…"}, "callers": {…}}
//	}
//	-->
//
// The rendered prose is not read back: it is cut to one line, renumbered
// and escaped, so the record is what a later report is merged with
// (Update), exactly. The JSON is the report in canonical form (see
// Update), indented by two spaces; "-->" inside a string is written
// "--\u003e", and JSON holds no raw newline inside a string, so the
// comment ends only at the line "-->". The record is the last thing
// RenderEnriched writes, and the last line "<!-- fileinfo:report ..."
// starts it: prose that imitates one comes earlier. A hand edit of the
// prose above the record is lost at the next report; an edit inside it is
// kept. Without a readable record, Prose reads the prose above instead
// (recover.go). "digests" (see Digests) says what source each symbol's
// prose was written from; a record without it (written before digests
// were kept) reads as one whose every symbol changed.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

const (
	recordMarker  = "<!-- fileinfo:report "
	recordVersion = "v1"
	recordClose   = "-->"
)

// record is what the record block holds: a report and its digests.
type record struct {
	*Report
	Digests *Digests `json:"digests,omitempty"`
}

// appendRecord appends the record of r, in canonical form, and of d to b.
func appendRecord(b *bytes.Buffer, r *Report, d Digests) {
	var j bytes.Buffer
	enc := json.NewEncoder(&j)
	enc.SetEscapeHTML(false) // prose keeps its < and &: only "-->" must go
	enc.SetIndent("", "  ")
	rec := record{Report: r}
	if !d.Empty() {
		rec.Digests = &d
	}
	if err := enc.Encode(rec); err != nil {
		// A Report of strings always encodes.
		panic(fmt.Sprintf("enrich: encode record: %v", err))
	}
	b.WriteString("\n" + recordMarker + recordVersion + "\n")
	b.Write(bytes.ReplaceAll(bytes.TrimSuffix(j.Bytes(), []byte("\n")), []byte("-->"), []byte(`--\u003e`)))
	b.WriteString("\n" + recordClose + "\n")
}

// WithoutRecord returns body without the record at its end: what a
// reader needs, the record's prose being shown above it already. A body
// without a record is returned as it is.
func WithoutRecord(body []byte) []byte {
	i := bytes.LastIndex(body, []byte("\n"+recordMarker))
	if i < 0 {
		return body
	}
	return append(bytes.TrimRight(body[:i], "\n"), '\n')
}

// Recorded returns the prose an enriched artifact's body records, as
// RenderEnriched wrote it, or nil and no error when the body has no
// record (a basic artifact, or one from before records). It fails on a
// record it cannot read: damaged, unclosed, or of another version. Text
// after the record is ignored. The report is not checked against any
// file; Update drops what names no symbol.
func Recorded(body []byte) (*Report, error) {
	r, _, err := RecordedDigests(body)
	return r, err
}

// RecordedDigests is Recorded with the digests the record keeps, empty
// when it keeps none.
func RecordedDigests(body []byte) (*Report, Digests, error) {
	i := bytes.LastIndex(body, []byte("\n"+recordMarker))
	if i < 0 {
		return nil, Digests{}, nil
	}
	rest := body[i+1+len(recordMarker):]
	line, rest, ok := bytes.Cut(rest, []byte("\n"))
	if !ok {
		return nil, Digests{}, errors.New("the artifact's record is cut short")
	}
	if v := string(bytes.TrimSpace(line)); v != recordVersion {
		return nil, Digests{}, fmt.Errorf("the artifact's record is of version %q; this fileinfo reads %s", v, recordVersion)
	}
	j := bytes.Index(rest, []byte("\n"+recordClose))
	if j < 0 {
		return nil, Digests{}, errors.New("the artifact's record is not closed")
	}
	var rec record
	if err := json.Unmarshal(rest[:j], &rec); err != nil {
		return nil, Digests{}, fmt.Errorf("the artifact's record does not parse: %w", err)
	}
	if rec.Report == nil {
		rec.Report = &Report{}
	}
	var d Digests
	if rec.Digests != nil {
		d = *rec.Digests
	}
	return rec.Report, d, nil
}
