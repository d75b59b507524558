package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fileinfo/fileinfo/internal/server"
)

// runInfo prints what the file_info tool answers for one file: the
// server runs in process and a client calls the tool over an in-memory
// transport, so the answer is the one an agent gets. It is the quickest
// look at what fileinfo does, and it writes the file's basic artifact as
// the tool does.
func runInfo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("info", "PATH", stderr)
	root := fs.String("root", ".", "workspace root `dir`")
	part := intFlag(fs, "part", 0, partRange, "the `part` to print, when the file comes in parts")
	refresh := fs.Bool("refresh", false, "a prompt even when the enriched artifact is up to date")
	maxTokens := intFlag(fs, "max-tokens", 0, maxTokensRange, "token `budget` of the prompt (default 24000)")
	asJSON := fs.Bool("json", false, "print the structured metadata instead of the text")
	prof := profileFlags(fs)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fs.Usage()
		return errUsage
	}
	stop, err := prof.start()
	if err != nil {
		return err
	}
	defer stop()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Warnings, such as a saved state rebuilt (see graphstore), go to
	// stderr as the lookups' do.
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	s, err := server.New(ctx, server.Options{Root: *root, Version: version(), NoWatch: true, NoDocs: true, Logger: log})
	if err != nil {
		return err
	}
	defer s.Close()
	st, ct := mcp.NewInMemoryTransports()
	ran := make(chan struct{})
	go func() {
		defer close(ran)
		s.Run(ctx, st)
	}()
	// The server logs to stderr: it is done before info returns, once
	// the client below has closed the session (or ctx is cancelled).
	defer func() { <-ran }()
	client := mcp.NewClient(&mcp.Implementation{Name: "fileinfo-info", Version: version()}, nil)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		cancel()
		return err
	}
	defer cs.Close()
	in := map[string]any{"path": pos[0]}
	if *part > 0 {
		in["part"] = *part
	}
	if *refresh {
		in["refresh"] = true
	}
	if *maxTokens > 0 {
		in["max_tokens"] = *maxTokens
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "file_info", Arguments: in})
	if err != nil {
		return err
	}
	if err := prof.heap(); err != nil { // the workspace loaded and the answer built
		return err
	}
	text := toolText(res)
	if res.IsError {
		return errors.New(text)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res.StructuredContent)
	}
	_, err = fmt.Fprintln(stdout, text)
	return err
}
