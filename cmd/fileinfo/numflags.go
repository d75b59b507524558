package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/fileinfo/fileinfo/internal/server"
)

// The ranges of the numeric flags. A flag that is a tool's argument, or
// sets one's default, takes the tool's range (server.ArgRange, the one
// source the tool's schema and checks read); the rest are the CLI's own.
// A flag set out of its range, to NaN or ±Inf, or to no number at all is
// refused, naming the flag and its range: the command exits 2.
var (
	maxTokensRange = server.ArgRange("file_info", "max_tokens")
	partRange      = server.ArgRange("file_info", "part")
	searchLimit    = server.ArgRange("search_docs", "limit")
	minScoreRange  = server.ArgRange("search_docs", "min_score")

	symbolsLimit   = server.IntRange(1, 1_000_000) // the CLI prints them all, unpaged
	treeDepth      = server.IntRange(1, 10)        // callers, callees
	callgraphDepth = server.IntRange(0, 100)       // 0: the symbol alone
	workersRange   = server.IntRange(0, 1024)      // 0: one per CPU
	maxSizeRange   = server.IntRange(1, 1<<30)     // bytes
	runsRange      = server.IntRange(1, 1000)
	callsRange     = server.IntRange(0, 100000)
	benchDepth     = server.IntRange(10, 1000) // results a bench code query ranks its answer among
	idleRange      = durationRange{time.Millisecond, time.Hour}
)

// intFlag defines an int flag that takes values of r only; the usage
// says r.
func intFlag(fs *flag.FlagSet, name string, def int, r server.Range, usage string) *int {
	p := new(int)
	*p = def
	fs.Var(&intValue{p, r}, name, withRange(usage, r.String()))
	return p
}

// int64Flag is intFlag for an int64.
func int64Flag(fs *flag.FlagSet, name string, def int64, r server.Range, usage string) *int64 {
	p := new(int64)
	*p = def
	fs.Var(&int64Value{p, r}, name, withRange(usage, r.String()))
	return p
}

// floatFlag is intFlag for a float64.
func floatFlag(fs *flag.FlagSet, name string, def float64, r server.Range, usage string) *float64 {
	p := new(float64)
	*p = def
	fs.Var(&floatValue{p, r}, name, withRange(usage, r.String()))
	return p
}

// durationFlag is intFlag for a time.Duration.
func durationFlag(fs *flag.FlagSet, name string, def time.Duration, r durationRange, usage string) *time.Duration {
	p := new(time.Duration)
	*p = def
	fs.Var(&durationValue{p, r}, name, withRange(usage, r.String()))
	return p
}

// withRange appends what a flag takes to its usage; when the usage names
// no `value`, the kind of number names it in -h.
func withRange(usage, takes string) string {
	if !strings.Contains(usage, "`") {
		kind, rest, _ := strings.Cut(takes, " from ")
		article, noun, _ := strings.Cut(kind, " ")
		takes = article + " `" + noun + "` from " + rest
	}
	return usage + " (" + takes + ")"
}

// The flag.Values: the flag package prints a Set error as
// `invalid value "-1" for flag -limit: -1 is out of range; want ...`.

type intValue struct {
	p *int
	r server.Range
}

func (v *intValue) Set(s string) error {
	f, err := v.r.Parse("", s)
	if err == nil {
		*v.p = int(f)
	}
	return err
}

func (v *intValue) String() string {
	if v == nil || v.p == nil {
		return "0"
	}
	return strconv.Itoa(*v.p)
}

type int64Value struct {
	p *int64
	r server.Range
}

func (v *int64Value) Set(s string) error {
	f, err := v.r.Parse("", s)
	if err == nil {
		*v.p = int64(f)
	}
	return err
}

func (v *int64Value) String() string {
	if v == nil || v.p == nil {
		return "0"
	}
	return strconv.FormatInt(*v.p, 10)
}

type floatValue struct {
	p *float64
	r server.Range
}

func (v *floatValue) Set(s string) error {
	f, err := v.r.Parse("", s)
	if err == nil {
		*v.p = f
	}
	return err
}

func (v *floatValue) String() string {
	if v == nil || v.p == nil {
		return "0"
	}
	return strconv.FormatFloat(*v.p, 'g', -1, 64)
}

// durationRange is the durations from Min to Max, both included.
type durationRange struct{ Min, Max time.Duration }

func (r durationRange) String() string { return fmt.Sprintf("a duration from %v to %v", r.Min, r.Max) }

type durationValue struct {
	p *time.Duration
	r durationRange
}

func (v *durationValue) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("%q is not a duration such as 2s or 500ms; want %s", s, v.r)
	}
	if d < v.r.Min || d > v.r.Max {
		return fmt.Errorf("%v is out of range; want %s", d, v.r)
	}
	*v.p = d
	return nil
}

func (v *durationValue) String() string {
	if v == nil || v.p == nil {
		return "0s"
	}
	return v.p.String()
}
