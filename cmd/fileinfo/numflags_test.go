package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// numericFlag is a numeric flag of a command as its -h says it.
type numericFlag struct {
	cmd      []string // the command line before the flag: "search", or "bench", "serve"
	name     string
	takes    string // "an integer from 1 to 100"
	min, max float64
	duration bool
}

var (
	flagLine  = regexp.MustCompile(`^  -(\S+)(?: (\S+))?$`)
	rangeText = regexp.MustCompile(`\(((?:an integer|a number|a duration) from (\S+) to (\S+))\)`)
)

// numericFlags reads the numeric flags of every command (and of bench's
// subcommands) from their -h, failing t on one that states no range.
func numericFlags(t *testing.T) []numericFlag {
	t.Helper()
	var cmds [][]string
	for _, c := range commands() {
		if c.name == "bench" {
			for _, sub := range []string{"extract", "search", "code", "docs", "index", "serve"} {
				cmds = append(cmds, []string{"bench", sub})
			}
			continue
		}
		cmds = append(cmds, []string{c.name})
	}
	var flags []numericFlag
	for _, cmd := range cmds {
		_, help, _ := runCLI(t, append(cmd, "-h")...) // help asked for is output
		lines := strings.Split(help, "\n")
		for i, l := range lines {
			m := flagLine.FindStringSubmatch(l)
			if m == nil || i+1 == len(lines) {
				continue
			}
			desc := lines[i+1]
			r := rangeText.FindStringSubmatch(desc)
			switch typ := m[2]; {
			case r == nil && (typ == "int" || typ == "uint" || typ == "float" || typ == "duration" || typ == "integer" || typ == "number"):
				t.Errorf("fileinfo %s -%s takes a number but states no range: %s", strings.Join(cmd, " "), m[1], desc)
			case r != nil:
				f := numericFlag{cmd: cmd, name: m[1], takes: r[1], duration: strings.HasPrefix(r[1], "a duration")}
				if !f.duration {
					f.min, _ = strconv.ParseFloat(r[2], 64)
					f.max, _ = strconv.ParseFloat(r[3], 64)
				}
				flags = append(flags, f)
			}
		}
	}
	return flags
}

// TestNumericFlagsRefused: every numeric flag of every command refuses
// NaN, ±Inf, values beyond its range, fractions where it takes integers
// and words, naming itself and its range, with exit 2 (issue 30: search
// took --min-score NaN and --limit -1).
func TestNumericFlagsRefused(t *testing.T) {
	flags := numericFlags(t)
	t.Logf("%d numeric flags", len(flags))
	if len(flags) < 15 {
		t.Fatalf("found %d numeric flags: %+v", len(flags), flags)
	}
	for _, f := range flags {
		bad := []string{"NaN", "Inf", "-Inf", "1e400", "ten", ""}
		if f.duration {
			bad = []string{"0s", "-1s", "2h", "ten", "5"}
		} else {
			bad = append(bad, strconv.FormatFloat(f.min-1, 'f', -1, 64), strconv.FormatFloat(f.max+1, 'f', -1, 64))
			if strings.HasPrefix(f.takes, "an integer") {
				bad = append(bad, strconv.FormatFloat(f.min+0.5, 'f', -1, 64))
			}
		}
		for _, v := range bad {
			args := append(append([]string{}, f.cmd...), "--"+f.name, v, "x")
			code, stdout, stderr := runCLI(t, args...)
			want := fmt.Sprintf("invalid value %q for flag -%s: ", v, f.name)
			if code != 2 || stdout != "" || !strings.Contains(stderr, want) || !strings.Contains(stderr, "want "+f.takes) {
				t.Errorf("fileinfo %s: exit %d, stderr %.300q; want exit 2 and %q ... %q", strings.Join(args, " "), code, stderr, want, "want "+f.takes)
			}
		}
	}
}

// TestNumericFlagsTake: the ends of each range are taken, and set the
// flag.
func TestNumericFlagsTake(t *testing.T) {
	for _, tc := range []struct {
		v    interface{ Set(string) error }
		in   string
		want string
	}{
		{&intValue{new(int), searchLimit}, "1", "1"},
		{&intValue{new(int), searchLimit}, "100", "100"},
		{&intValue{new(int), callgraphDepth}, "0", "0"},
		{&int64Value{new(int64), maxSizeRange}, "1073741824", "1073741824"},
		{&floatValue{new(float64), minScoreRange}, "0", "0"},
		{&floatValue{new(float64), minScoreRange}, "1", "1"},
		{&floatValue{new(float64), minScoreRange}, "0.25", "0.25"},
		{&durationValue{new(time.Duration), idleRange}, "1ms", "1ms"},
		{&durationValue{new(time.Duration), idleRange}, "1h", "1h0m0s"},
	} {
		if err := tc.v.Set(tc.in); err != nil {
			t.Errorf("Set(%q): %v", tc.in, err)
		}
		if got := tc.v.(interface{ String() string }).String(); got != tc.want {
			t.Errorf("Set(%q) then String() = %q, want %q", tc.in, got, tc.want)
		}
	}
}
