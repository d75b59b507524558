package artifacts

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"slices"
)

// Status is the state of a source file's artifact. Basic, Partial and
// Enriched are written; Missing and Stale are computed.
type Status string

const (
	// Missing: there is no artifact for the source.
	Missing Status = "missing"
	// Basic: the artifact holds the structure only, no model prose.
	Basic Status = "basic"
	// Enriched: the artifact holds the model's report, with prose for
	// every symbol.
	Enriched Status = "enriched"
	// Partial: the artifact holds the model's reports, but some symbols
	// have no prose yet (never reported, or new since the last report):
	// documenting the file is work still to do.
	Partial Status = "partial"
	// Stale: the source or its callers changed since the artifact was made.
	Stale Status = "stale"
)

// Fingerprint is what an artifact's freshness is judged by: the digests of
// the source file and of its callers when the artifact was made.
type Fingerprint struct {
	SourceSHA256  string // SourceDigest of the source file's bytes
	CallersDigest string // CallersDigest of the source's callers
}

// StatusFor returns the status of the artifact m describes, given the
// source's fingerprint now: m.Status if it equals m.Fingerprint, Stale if it
// does not, and Missing for the zero Meta.
func (m Meta) StatusFor(now Fingerprint) Status {
	switch {
	case m.Status == "":
		return Missing
	case m.Fingerprint != now:
		return Stale
	}
	return m.Status
}

// SourceDigest returns the lower-case hex SHA-256 of a source file's bytes.
func SourceDigest(src []byte) string {
	sum := sha256.Sum256(src)
	return hex.EncodeToString(sum[:])
}

// CallersDigest returns a lower-case hex SHA-256 digest of a set of caller
// identities, such as "pkg.F (a/b.go:12)": neither their order nor repeats
// change it. The empty set has a digest too.
func CallersDigest(callers []string) string {
	set := slices.Clone(callers)
	slices.Sort(set)
	set = slices.Compact(set)
	h := sha256.New()
	var n [binary.MaxVarintLen64]byte
	for _, c := range set {
		// A length prefix keeps {"a\nb"} and {"a", "b"} apart.
		h.Write(n[:binary.PutUvarint(n[:], uint64(len(c)))])
		h.Write([]byte(c))
	}
	return hex.EncodeToString(h.Sum(nil))
}
