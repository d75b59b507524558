package server

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fileinfo/fileinfo/artifacts"
	"github.com/fileinfo/fileinfo/enrich"
)

// sinceReport is what changed in a file since its stale artifact's prose was
// written, as the artifact's record tells.
type sinceReport struct {
	prev    *enrich.Report
	digests enrich.Digests // recorded with prev
	what    enrich.Changes
	missing []string // symbols prev has no prose for
	status  artifacts.Status
}

// ask is what an incremental prompt asks about: the symbols that changed
// and those without prose, in line order as the changes list them.
func (c *sinceReport) ask() []string {
	out := slices.Clone(c.what.Source)
	for _, m := range c.missing {
		if !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}

// none reports whether nothing the prose describes changed: only callers,
// or blank lines between symbols.
func (c *sinceReport) none() bool {
	return len(c.what.Source) == 0 && !c.what.FileLevel && len(c.missing) == 0
}

// changesSince reads rel's artifact record and compares its digests with
// the source now; nil when the artifact keeps no digests (written by an
// older fileinfo, or without a record) or was basic. The caller holds
// w.mu for reading.
func (w *workspace) changesSince(rel string, src *source, text []byte) *sinceReport {
	m, body, err := w.store.Read(rel)
	if err != nil || m.Status != artifacts.Enriched && m.Status != artifacts.Partial {
		return nil
	}
	prev, d, err := enrich.RecordedDigests(body)
	if err != nil || prev == nil || d.Empty() {
		return nil
	}
	now := enrich.SymbolDigests(src.file, w.enrichGraph(), text)
	c := &sinceReport{prev: prev, digests: d, what: enrich.Compare(src.file, d, now), status: m.Status}
	merged := enrich.Update(prev, nil, src.file)
	c.missing = enrich.Undocumented(merged, src.file)
	if strings.TrimSpace(merged.Overview) == "" {
		c.what.FileLevel = true // the overview is asked for again
	}
	return c
}

// rerender writes rel's artifact again from the prose it records, with the
// callers of now, keeping its status: what changed since (c.none()) is
// nothing the prose describes. It returns the status written. A report
// saved meanwhile wins: the artifact is left as it is then.
func (w *workspace) rerender(rel string, src *source, text []byte, c *sinceReport, version string) (artifacts.Status, error) {
	w.saveMu.Lock()
	defer w.saveMu.Unlock()
	w.mu.RLock()
	defer w.mu.RUnlock()
	fp := w.fingerprint(src)
	if st, err := w.artifactStatus(rel, fp); err != nil || st != artifacts.Stale {
		return st, err
	}
	report := enrich.Update(c.prev, nil, src.file)
	digests := enrich.Stamp(src.file, w.enrichGraph(), text, c.digests, nil)
	body, err := enrich.RenderEnriched(src.file, w.enrichGraph(), report, digests)
	if err != nil {
		return artifacts.Stale, fmt.Errorf("render %s: %w", rel, err)
	}
	if err := w.store.Write(rel, artifacts.Meta{Fingerprint: fp, ToolVersion: version, Status: c.status}, body); err != nil {
		return artifacts.Stale, err
	}
	return c.status, nil
}
