package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/lookup"
)

// The tools bench ccallers measures: fileinfo's call graph, built in
// this process, and cscope and GNU GLOBAL, run on the same files.

// buildGraph extracts root and builds its call graph, in this process.
func buildGraph(ctx context.Context, root string) (*callgraph.Graph, *extract.Extractor, error) {
	ex, err := extract.New(root, extract.Options{Languages: []string{"c", "cpp"}})
	if err != nil {
		return nil, nil, err
	}
	files, _, err := ex.All(ctx)
	if err != nil {
		ex.Close()
		return nil, nil, err
	}
	g, err := callgraph.BuildContext(ctx, files)
	if err != nil {
		ex.Close()
		return nil, nil, err
	}
	return g, ex, nil
}

// oursCallers fills each target's call sites from the graph: the edges
// into its definition node, and what `fileinfo callers NAME` answers.
func oursCallers(g *callgraph.Graph, ex *extract.Extractor, targets []*cTarget, dirs []string) {
	ix := lookup.New(g, func(string) *extract.File { return nil })
	for _, t := range targets {
		t.ours, t.labels = map[cSite]int{}, map[string]int{}
		var def callgraph.SymbolID
		found := false
		for _, id := range g.InFile(t.file) {
			if n := g.Node(id); n.Name == t.name && n.Kind == extract.KindFunction && !n.Declaration {
				def, found = id, true
				break
			}
		}
		if !found {
			t.bare = "no definition node in " + t.file
			continue
		}
		start := time.Now()
		ids, err := ix.Resolve(t.name)
		t.ourTime = time.Since(start)
		switch {
		case err != nil:
			t.bare = strings.SplitN(err.Error(), ";", 2)[0]
		case !slices.Contains(ids, def):
			t.bare = "names " + g.Node(ids[0]).Qualified
		}
		for _, e := range g.Callers(def) {
			if !inDirs(e.File, dirs) {
				continue
			}
			t.ours[cSite{e.File, e.Line}] = g.Node(e.Caller).EndLine
			t.labels[string(e.Resolution)]++
		}
	}
}

// cscopeDB builds cscope's database of files in work unless it is there.
func cscopeDB(ctx context.Context, bin, root, work string, files []string) (time.Duration, bool, error) {
	db := filepath.Join(work, "cscope.out")
	if _, err := os.Stat(db); err == nil {
		return 0, false, nil
	}
	list := filepath.Join(work, "cscope.files")
	if err := os.WriteFile(list, []byte(strings.Join(files, "\n")+"\n"), 0o644); err != nil {
		return 0, false, err
	}
	cmd := exec.CommandContext(ctx, bin, "-b", "-q", "-k", "-i", list, "-f", db)
	cmd.Dir = root
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		return 0, false, fmt.Errorf("cscope: build its database: %v: %s (pass --cscope '' to skip)", err, out)
	}
	return time.Since(start), true, nil
}

// cscopeCallers asks cscope for the functions calling name (its query
// 3): each answer line is "file function line text".
func cscopeCallers(ctx context.Context, bin, root, work, name string, dirs []string) (map[cSite]bool, error) {
	cmd := exec.CommandContext(ctx, bin, "-d", "-L", "-3", name, "-f", filepath.Join(work, "cscope.out"))
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("cscope -L -3 %s: %w", name, err)
	}
	sites := map[cSite]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 3 {
			continue
		}
		line, err := strconv.Atoi(f[2])
		if err != nil || !inDirs(f[0], dirs) {
			continue
		}
		sites[cSite{f[0], line}] = true
	}
	return sites, nil
}

// gtagsDB builds GLOBAL's database of files in work/gtags unless it is
// there.
func gtagsDB(ctx context.Context, bin, root, work string, files []string) (time.Duration, bool, error) {
	dir := filepath.Join(work, "gtags")
	if _, err := os.Stat(filepath.Join(dir, "GTAGS")); err == nil {
		return 0, false, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, false, err
	}
	list := filepath.Join(work, "gtags.files")
	if err := os.WriteFile(list, []byte(strings.Join(files, "\n")+"\n"), 0o644); err != nil {
		return 0, false, err
	}
	cmd := exec.CommandContext(ctx, bin, "-f", list, dir)
	cmd.Dir = root
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		return 0, false, fmt.Errorf("gtags: build its database: %v: %s (pass --global '' to skip)", err, out)
	}
	return time.Since(start), true, nil
}

// globalRefs asks GLOBAL for the references to name (global -rx): GLOBAL
// has no callers query, its references are what a user reads as such.
// Each line is "name line file text".
func globalRefs(ctx context.Context, bin, root, work, name string, dirs []string) (map[cSite]bool, error) {
	cmd := exec.CommandContext(ctx, bin, "-r", "-x", name)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GTAGSROOT="+root, "GTAGSDBPATH="+filepath.Join(work, "gtags"))
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) { // 1: nothing found
		return nil, fmt.Errorf("global -rx %s: %w", name, err)
	}
	sites := map[cSite]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 3 || f[0] != name {
			continue
		}
		line, err := strconv.Atoi(f[1])
		if err != nil || !inDirs(f[2], dirs) {
			continue
		}
		sites[cSite{f[2], line}] = true
	}
	return sites, nil
}
