package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
)

// command is one subcommand of the CLI.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"extract", "print the structure (symbols, imports, calls) of files as JSON", runExtract},
		{"callgraph", "print the call graph as json, pycg, dot or mermaid", runCallgraph},
		{"callers", "print the callers of a symbol as a tree", runCallers},
		{"callees", "print the callees of a symbol as a tree", runCallees},
		{"symbols", "find definitions by exact, partial or near name", runSymbols},
		{"enrich", "document files headless with an OpenAI-compatible model, callee-first", runEnrich},
		{"index", "index the workspace's docs and artifacts for search", runIndex},
		{"search", "search the workspace's docs and artifacts", runSearch},
		{"serve", "serve the MCP tools over stdio, or streamable HTTP with --http", runServe},
		{"deps", "list the dependencies at their locked versions, and whether their source is on disk", runDeps},
		{"info", "print the file_info tool's answer for one file (the prompt an agent gets)", runInfo},
		{"bench", "measure extraction (bench extract), retrieval on a BEIR set (bench search), code search (bench code), docs search (bench docs), indexing (bench index), the served tools (bench serve) or C callers (bench ccallers)", runBench},
		{"version", "print the version", runVersion},
	}
}

// errUsage marks an error whose message is already printed with usage.
var errUsage = errors.New("usage")

// run executes the command line and returns the process exit code:
// 0 success, 1 failure, 2 usage error.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	if args[0] == "help" || helpAsked(args[:1]) {
		usage(stdout)
		return 0
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		out := stderr
		if helpAsked(args[1:]) {
			out = stdout // the usage asked for is the command's output
		}
		err := c.run(ctx, args[1:], stdout, out)
		switch {
		case err == nil:
			return 0
		case errors.Is(err, flag.ErrHelp):
			return 0
		case errors.Is(err, errUsage):
			return 2
		default:
			fmt.Fprintf(stderr, "fileinfo %s: %v\n", c.name, err)
			return 1
		}
	}
	fmt.Fprintf(stderr, "fileinfo: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}

// helpAsked reports whether args, before any "--", ask for help as the
// flag package reads it: -h, -help, --h or --help.
func helpAsked(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--h", "--help":
			return true
		}
	}
	return false
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: fileinfo <command> [flags] [args]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	cs := commands()
	sort.Slice(cs, func(i, j int) bool { return cs[i].name < cs[j].name })
	for _, c := range cs {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'fileinfo <command> -h' for a command's flags.")
}

// newFlags returns a flag set that reports errors instead of exiting.
func newFlags(name, args string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("fileinfo "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: fileinfo %s [flags] %s\n\nflags:\n", name, args)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args, mapping a parse error to errUsage (the flag
// package has printed it already).
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	return nil
}

// rootArg takes the workspace root from pos, the positional arguments of a
// command whose only one is the directory --root names: at most one, and
// the same as --root when both are given. A conflict is a usage error
// saying so.
func rootArg(fs *flag.FlagSet, root *string, pos []string) error {
	switch len(pos) {
	case 0:
		return nil
	case 1:
	default:
		fmt.Fprintf(fs.Output(), "%s: one directory at most, got %d: %s\n", fs.Name(), len(pos), strings.Join(pos, " "))
		return errUsage
	}
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "root" })
	if set && filepath.Clean(*root) != filepath.Clean(pos[0]) {
		fmt.Fprintf(fs.Output(), "%s: the workspace is given twice, as --root %s and as %s; give one\n", fs.Name(), *root, pos[0])
		return errUsage
	}
	*root = pos[0]
	return nil
}

func runVersion(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("version", "", stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	fmt.Fprintln(stdout, "fileinfo", version())
	return nil
}

// version is the main module's version from the build info.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok || bi.Main.Version == "" {
		return "(devel)"
	}
	v := bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && v == "(devel)" {
			v += " " + s.Value[:min(12, len(s.Value))]
		}
	}
	return strings.TrimSpace(v)
}

// parseInterspersed parses flags that may come before, between or after
// the positional arguments, and returns the positional ones. "--" ends
// the flags.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := parseFlags(fs, args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}
