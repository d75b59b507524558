package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/fileinfo/fileinfo/internal/deps"
)

// runDeps lists the workspace's dependencies at their locked versions and
// whether their source is on this machine.
func runDeps(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("deps", "", stderr)
	root := fs.String("root", ".", "workspace root `dir`")
	which := fs.String("deps", "direct", "`which` dependencies: direct or all (transitive too)")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 || (*which != "direct" && *which != "all") {
		fmt.Fprintln(stderr, "usage: fileinfo deps [--root DIR] [--deps direct|all] [--json]")
		return errUsage
	}
	ds, err := deps.Resolve(*root, deps.Options{All: *which == "all"})
	// A bad lockfile hides nothing else: what resolved is printed, then
	// err fails the command.
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err2 := enc.Encode(struct {
			Deps []deps.Dep `json:"deps"`
		}{ds}); err2 != nil {
			return err2
		}
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ECOSYSTEM\tNAME\tVERSION\tKIND\tSTATUS\tWHERE")
	counts := map[deps.Status]int{}
	for _, d := range ds {
		kind := "transitive"
		if d.Direct {
			kind = "direct"
		}
		where := d.Dir
		switch d.Status {
		case deps.Missing:
			where = "fetch with: " + d.Fetch
		case deps.Mismatch:
			where = fmt.Sprintf("found %s on disk; fetch with: %s", d.Found, d.Fetch)
		}
		counts[d.Status]++
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", d.Ecosystem, d.Name, d.Version, kind, d.Status, where)
	}
	if err2 := tw.Flush(); err2 != nil {
		return err2
	}
	fmt.Fprintf(stdout, "%d dependencies: %d present, %d missing, %d at another version\n",
		len(ds), counts[deps.Present], counts[deps.Missing], counts[deps.Mismatch])
	return err
}
