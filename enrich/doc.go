// Package enrich turns an extracted file and its call graph into the
// enrichment prompt that file_info hands the host's model, checks the
// report the model sends back through report_file_info, and renders both
// kinds of artifact as markdown. It returns bytes and writes nothing; the
// artifacts package stores them and adds the front matter.
//
// In: an *extract.File, its source, a Graph (a *callgraph.Graph, or what
// answers as one; it may be nil: no callers then). Out: a Prompt, a
// validated Report, markdown.
//
// # Names
//
// A symbol's local name is its qualified name without the file's module:
// "Store.get", "counted.wrapper", "NewStore". Prompts list symbols by
// local name and ask for them back; a report may also use the qualified
// name, or a simple name where it is unique (a method's simple name is
// looked up among its class's methods). A method whose type is declared in
// another file (Go) is documented as a function. Overloads share a
// qualified name, and so their prose.
//
// # Prompts
//
// Builder.Prompt lays a prompt out as the design's template: a role line;
// Structural Info (language, imports, the files calling in and called
// into, then every symbol with kind, local name, lines and signature, and
// for functions their callers "name (file:line)" at the call site and
// their callees at the declaration, each list sorted and capped with
// "and N more"); Source Code, each line prefixed with its number and a
// tab; the Task, which ends by asking for report_file_info.
//
// Sizes are counted in cl100k_base tokens (see Encoding), line by line,
// with tiktoken-go and the BPE ranks tiktoken-go-loader embeds: no network
// is used, ever. A prompt over Options.MaxTokens (default 24,000) is split
// into parts by whole symbols; see parts.go for how. Every symbol is asked
// for in exactly one part, the parts' lines tile the file, and each part
// is within the budget; nothing is cut silently.
//
// # Reports
//
// Report is report_file_info's argument. Implementation is a string of
// steps, one per line; decoding JSON also accepts a list of strings.
// Validate checks a report before anything is written: at most
// MaxReportSize (256 KB) as JSON, the right path, an overview (optional
// after part 1), and only names of real symbols, with an error that lists
// the names the model could have used. Undocumented lists the symbols
// still lacking prose. Update merges a report into the prose recorded
// before, so that a report naming some symbols (a part of a split file,
// or a model's second try) keeps every other symbol's prose, and drops
// the prose of symbols the file no longer has.
//
// # Artifacts
//
// RenderBasic (structure only) and RenderEnriched (with a report's prose)
// share one layout: "# path"; "## Overview" with Inputs, Outputs and
// Connections (from the graph, never from the model); "---"; "## Functions"
// with a "### `signature`" per function, its Purpose, numbered
// Implementation Summary and Called by (from the graph); "## Classes" with
// "#### Methods" under each. An enriched artifact ends with the record of
// its prose, a JSON report in an HTML comment, which Recorded reads back
// (the format is in record.go). Artifacts written before records have
// none: Recover reads their prose back from the markdown, matching
// symbols by their headings (recover.go), and Prose, the prose a report
// is merged into, takes the record or else that. Output is deterministic.
package enrich
