package server

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"

	"github.com/fileinfo/fileinfo/artifacts"
	"github.com/fileinfo/fileinfo/enrich"
)

// A Completer answers a system and a user prompt with text: a model.
type Completer interface {
	Complete(ctx context.Context, system, user string) (string, error)
}

// EnrichOptions configure Enrich.
type EnrichOptions struct {
	Root string
	// Paths are the files to document; empty means every extracted file.
	Paths []string
	// StaleFirst documents files whose enriched artifact is stale before
	// the others.
	StaleFirst bool
	// Model writes the reports.
	Model Completer
	// MaxTokens is the budget of one prompt. Default enrich.DefaultMaxTokens.
	MaxTokens   int
	MaxFileSize int64
	Version     string
	Logger      *slog.Logger
	// Progress, if set, is called before each file and once at the end
	// (with path "").
	Progress func(done, total int, path string)
}

// EnrichResult says what Enrich did.
type EnrichResult struct {
	Documented int      // files whose enriched artifact was written
	UpToDate   int      // files skipped: their enriched artifact is fresh
	Failed     []string // "path: why", for files left as they were
}

// Enrich documents files headless, without an MCP client: for each file,
// each part's prompt goes to opt.Model and its answer is validated and
// saved as report_file_info would. Files are taken callee-first (the call
// graph's strongly connected components in topological order), so a
// caller's prompt shows what its callees do, as their reports said. Files
// with a fresh enriched artifact are skipped, so an interrupted run
// resumes where it stopped. A file that fails is reported and the run goes
// on; only a cancelled ctx or an unloadable root stops it.
func Enrich(ctx context.Context, opt EnrichOptions) (EnrichResult, error) {
	var res EnrichResult
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opt.Model == nil {
		return res, errors.New("no model to write the reports")
	}
	ws, err := openWorkspace(cmp.Or(opt.Root, "."), opt.MaxFileSize, log)
	if err != nil {
		return res, err
	}
	defer ws.close()
	ws.keepGraph = true // read below without mu: no graph may replace it
	if err := ws.load(ctx, Options{NoDocs: true}); err != nil {
		return res, err
	}
	paths, err := ws.enrichOrder(opt.Paths, opt.StaleFirst)
	if err != nil {
		return res, err
	}
	builder := enrich.NewBuilder()
	purposes := map[string]string{}
	for i, rel := range paths {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		if opt.Progress != nil {
			opt.Progress(i, len(paths), rel)
		}
		done, err := ws.enrichFile(ctx, builder, opt, rel, purposes)
		switch {
		case err != nil && ctx.Err() != nil:
			return res, ctx.Err()
		case err != nil:
			log.Warn("not documented", "path", rel, "err", err)
			res.Failed = append(res.Failed, rel+": "+err.Error())
		case done:
			res.Documented++
		default:
			res.UpToDate++
		}
	}
	if opt.Progress != nil {
		opt.Progress(len(paths), len(paths), "")
	}
	return res, nil
}

// enrichOrder returns the files to document, callee-first: in the order
// their symbols first appear in the call graph's callee-first order of
// strongly connected components, then files without symbols by path.
func (ws *workspace) enrichOrder(only []string, staleFirst bool) ([]string, error) {
	want := map[string]bool{}
	for _, p := range only {
		rel, err := ws.rel(p)
		if err != nil {
			return nil, err
		}
		if ws.files[rel] == nil {
			return nil, fmt.Errorf("%s is not an extracted source file", rel)
		}
		want[rel] = true
	}
	if len(only) == 0 {
		for p := range ws.files {
			want[p] = true
		}
	}
	var order []string
	seen := map[string]bool{}
	for _, scc := range ws.callGraph().CalleeFirst() {
		for _, id := range scc {
			if f := ws.callGraph().Node(id).File; want[f] && !seen[f] {
				seen[f] = true
				order = append(order, f)
			}
		}
	}
	for _, p := range slices.Sorted(maps.Keys(want)) {
		if !seen[p] {
			order = append(order, p)
		}
	}
	if staleFirst {
		stale := func(p string) bool {
			st, _ := ws.artifactStatus(p, ws.fingerprint(ws.files[p]))
			return st == artifacts.Stale
		}
		slices.SortStableFunc(order, func(a, b string) int {
			sa, sb := stale(a), stale(b)
			switch {
			case sa && !sb:
				return -1
			case sb && !sa:
				return 1
			}
			return 0
		})
	}
	return order, nil
}

// enrichFile documents one file, part by part, unless its enriched
// artifact is fresh (done is false then). The purposes its report gives
// are added to purposes.
func (ws *workspace) enrichFile(ctx context.Context, b *enrich.Builder, opt EnrichOptions, rel string, purposes map[string]string) (done bool, err error) {
	src, text, err := ws.current(ctx, rel)
	if err != nil {
		return false, err
	}
	if st, _ := ws.artifactStatus(rel, ws.fingerprint(src)); st == artifacts.Enriched {
		return false, nil
	}
	for part := 1; ; part++ {
		p, err := b.Prompt(src.file, ws.callGraph(), text, enrich.Options{MaxTokens: opt.MaxTokens, Part: part, Purposes: purposes, Dependencies: ws.deps.used(src.file)})
		if err != nil {
			return false, err
		}
		answer, err := opt.Model.Complete(ctx, enrich.SystemPrompt, p.Text+"\n\n"+enrich.AnswerInstructions)
		if err != nil {
			return false, err
		}
		r, err := enrich.ParseAnswer(answer)
		if err != nil {
			return false, fmt.Errorf("part %d: %w", part, err)
		}
		if p.Parts > 1 {
			r.Part = part
		} else {
			r.Part = 0
		}
		if _, _, err := ws.saveReport(rel, src, text, *r, opt.Version); err != nil {
			return false, fmt.Errorf("part %d: %w", part, err)
		}
		maps.Copy(purposes, enrich.Purposes(r, src.file))
		if part >= p.Parts {
			return true, nil
		}
	}
}
