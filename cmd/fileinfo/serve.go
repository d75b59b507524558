package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/enrich"
	"github.com/fileinfo/fileinfo/internal/server"
)

// tokenEnv names the environment variable holding the HTTP bearer token.
const tokenEnv = "FILEINFO_TOKEN"

func runServe(ctx context.Context, args []string, _, stderr io.Writer) error {
	fs := newFlags("serve", "[DIR]", stderr)
	root := fs.String("root", ".", "workspace root `dir`")
	addr := fs.String("http", "", "serve streamable HTTP at `addr` (host:port, path /mcp) instead of stdio; a bare :port binds loopback")
	token := fs.String("token", "", "bearer `token` HTTP clients must send (default $"+tokenEnv+"); required to bind a non-loopback address")
	maxTokens := intFlag(fs, "max-tokens", enrich.DefaultMaxTokens, maxTokensRange, "default token `budget` of one file_info prompt")
	var allowRoots stringsFlag
	fs.Var(&allowRoots, "allow-root", "another `dir` set_workspace_root may switch to, with what is inside it (repeatable); --root always is")
	noWatch := fs.Bool("no-watch", false, "do not watch the workspace for changes (files a tool reads are still re-extracted when changed)")
	var docs scopeFlags
	fs.Var(&docs, "docs", "an extra scope of docs to search, `NAME=DIR` (repeatable)")
	rerank := fs.Bool("rerank", false, "have the client's model rerank the sources of ask_docs, get_working_example and explain_error (MCP sampling)")
	noDocs := fs.Bool("no-docs", false, "do not index docs and artifacts for search_docs")
	viewAt := fs.String("view", "", "serve the web view at `addr` (host:port; :0 picks a free loopback port) and log the link to its page, which holds the view's key, on stderr; open_view starts one on loopback when not given")
	noDeps := fs.Bool("no-deps", false, "do not index the dependencies the lockfiles name (search_docs scope deps)")
	whichDeps := fs.String("deps", "direct", "`which` dependencies to index: direct, or all (transitive too)")
	level := fs.String("log-level", "info", "log `level` on stderr: debug, info, warn or error")
	memory := byteSize(defaultIndexMemory)
	fs.Var(&memory, "memory", "keep the process within this `size` while a first start (no saved graph of this build) extracts and indexes every file, as index does: the Go heap's limit is it less a quarter, at most 512MB (2GB, 512MB; 0 for no limit; GOMEMLIMIT, when set, rules)")
	memProfile := fs.String("memprofile", "", "when the session ends, write a heap profile of what the server holds then (after a GC) to `FILE`")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole session, start to end, to `FILE`")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if err := rootArg(fs, root, pos); err != nil {
		return err
	}
	if *whichDeps != "direct" && *whichDeps != "all" {
		fs.Usage()
		return errUsage
	}
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(*level)); err != nil {
		return fmt.Errorf("--log-level %q: want debug, info, warn or error", *level)
	}
	// stdout carries the protocol: logs go to stderr only.
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: lv}))
	if *token == "" {
		*token = os.Getenv(tokenEnv)
	}
	viewListen, err := viewAddr(*viewAt, *token)
	if err != nil {
		return err
	}
	listen := ""
	if *addr != "" {
		var err error
		if listen, err = listenAddr(*addr, *token); err != nil {
			return err
		}
	}

	absRoot, err := filepath.Abs(*root)
	if err != nil {
		return err
	}
	var scopes []docsearch.Scope
	for _, spec := range docs {
		sc, err := parseScope(absRoot, spec)
		if err != nil {
			return err
		}
		scopes = append(scopes, sc)
	}
	if *cpuProfile != "" {
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return fmt.Errorf("cpuprofile %s: %w", *cpuProfile, err)
		}
		defer stop()
	}
	s, err := server.New(ctx, server.Options{
		Root: *root, AllowRoots: allowRoots, MaxTokens: *maxTokens, Version: version(), Logger: log, NoWatch: *noWatch,
		DocScopes: scopes, Embedder: defaultEmbedder(), NoDocs: *noDocs, SamplingRerank: *rerank,
		NoDeps: *noDeps, AllDeps: *whichDeps == "all", FirstMemory: heapLimit(int64(memory)),
	})
	if err != nil {
		return err
	}
	defer s.Close()
	if *memProfile != "" {
		// Deferred after Close, so it runs first: the workspace is still held.
		defer func() {
			if err := heapNow(*memProfile); err != nil {
				log.Warn("no heap profile", "err", err)
			}
		}()
	}
	if viewListen != "" {
		if _, err := s.StartView(ctx, viewListen, *token); err != nil {
			return err
		}
	}
	if listen == "" {
		return serveStdio(ctx, s, os.Stdin, os.Stdout, viewListen != "", log)
	}
	return serveHTTP(ctx, s, listen, *token, log)
}

// serveStdio serves s over in and out until in ends or ctx is done. With
// a view (--view), the end of in ends the MCP session only: the view a
// person may have open keeps serving until ctx is done. Either way it
// logs why it stops; an error is returned for the caller to print.
func serveStdio(ctx context.Context, s *server.Server, in io.Reader, out io.Writer, view bool, log *slog.Logger) error {
	err := s.Run(ctx, &server.LineTransport{In: in, Out: out, Logger: log})
	switch {
	case ctx.Err() != nil:
		log.Info("stopping", "reason", context.Cause(ctx))
		return nil
	case err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, context.Canceled):
		return err
	case !view:
		log.Info("stopping", "reason", "stdin closed: the MCP client ended the session")
		return nil
	}
	log.Info("stdin closed: the MCP session is over; the web view keeps serving until this process is interrupted or terminated")
	<-ctx.Done()
	log.Info("stopping", "reason", context.Cause(ctx))
	return nil
}

// listenAddr checks and completes the address to serve HTTP on: a bare
// ":port" binds the loopback interface; any other address than a loopback
// one needs a token.
func listenAddr(addr, token string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--http %q: want host:port or :port: %v", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	if !isLoopback(host) && token == "" {
		return "", fmt.Errorf("--http %s would serve the workspace beyond this machine; set a bearer token with --token or $%s, or bind a loopback address such as 127.0.0.1:%s", addr, tokenEnv, port)
	}
	return net.JoinHostPort(host, port), nil
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// serveHTTP serves s at addr until ctx is done, then shuts down.
func serveHTTP(ctx context.Context, s *server.Server, addr, token string, log *slog.Logger) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := s.HTTPServer(token, server.HTTPLimits{})
	log.Info("serving MCP over streamable HTTP", "url", "http://"+ln.Addr().String()+server.HTTPPath, "auth", token != "")
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		log.Info("stopping", "reason", context.Cause(ctx))
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return srv.Shutdown(shutdown)
	}
}
