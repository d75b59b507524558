package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/fileinfo/fileinfo/enrich"
	"github.com/fileinfo/fileinfo/internal/llm"
	"github.com/fileinfo/fileinfo/internal/server"
)

// keyEnv names the environment variables holding the endpoint's API key,
// in order of preference.
var keyEnv = []string{"FILEINFO_LLM_KEY", "OPENAI_API_KEY"}

func runEnrich(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("enrich", "[--all | PATH...]", stderr)
	root := fs.String("root", ".", "workspace root `dir`")
	all := fs.Bool("all", false, "document every extracted file")
	model := fs.String("llm", "", "model `spec` openai:MODEL@URL, an OpenAI-compatible endpoint (key from $"+strings.Join(keyEnv, " or $")+")")
	stale := fs.Bool("stale", false, "document files whose enriched artifact is stale first")
	maxTokens := intFlag(fs, "max-tokens", enrich.DefaultMaxTokens, maxTokensRange, "token `budget` of one prompt")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *model == "" || (*all == (fs.NArg() > 0)) {
		fmt.Fprintln(stderr, "fileinfo enrich: give --llm, and either --all or the PATHs to document")
		fs.Usage()
		return errUsage
	}
	key := ""
	for _, env := range keyEnv {
		if key = os.Getenv(env); key != "" {
			break
		}
	}
	client, err := llm.Parse(*model, key)
	if err != nil {
		return err
	}
	bar := newProgressBar(stderr)
	res, err := server.Enrich(ctx, server.EnrichOptions{
		Root: *root, Paths: fs.Args(), StaleFirst: *stale, Model: client, MaxTokens: *maxTokens,
		Version: version(), Logger: slog.New(slog.NewTextHandler(bar, &slog.HandlerOptions{Level: slog.LevelWarn})),
		Progress: bar.update,
	})
	bar.finish()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d documented, %d already up to date, %d failed\n", res.Documented, res.UpToDate, len(res.Failed))
	for _, f := range res.Failed {
		fmt.Fprintln(stdout, "  failed:", f)
	}
	if len(res.Failed) > 0 {
		return fmt.Errorf("%d files were not documented; run again to retry them", len(res.Failed))
	}
	return nil
}
