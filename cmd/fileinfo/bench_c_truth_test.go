package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// truthLines renders a scan as "name@line in fn" call lines and
// "fn name line-end" function lines.
func truthLines(s *cTruthFile) []string {
	var out []string
	for _, f := range s.funcs {
		st := ""
		if f.static {
			st = " static"
		}
		out = append(out, fmt.Sprintf("fn %s %d-%d%s", f.name, f.line, f.end, st))
	}
	for _, c := range s.calls {
		out = append(out, fmt.Sprintf("%s@%d in %s", c.name, c.line, s.funcs[c.fn].name))
	}
	return out
}

func TestScanCTruth(t *testing.T) {
	src := `#include <linux/kthread.h>
#define wait(x) kthread_should_stop(x) \
	&& kthread_should_stop(x)
extern __printf(1, 2) void panic(const char *fmt, ...) __cold;
static int helper(void);
int table[] = { 1, 2 };
/* kthread_should_stop() in a comment */
static int run(void *data)
{
	char *s = "kthread_should_stop()";
	char c = '(';
	while (!kthread_should_stop())
		ops->kthread_should_stop(data);
	for_each_cpu(i) {
		work(i);
	}
#if 0
	dead(1);
#else
	live(2);
#endif
	return sizeof(int) + f
		(3);
}

#ifdef CONFIG_X
int split(int a)
{
#else
int split(void)
{
#endif
	return g(1);
}

SYSCALL_DEFINE1(close, unsigned int, fd)
{
	extern int h(int);
	return close_fd(fd);
}
`
	got := truthLines(scanCTruth([]byte(src)))
	want := []string{
		"fn run 9-24 static",
		"fn split 28-28",
		"fn split 31-34",
		"fn SYSCALL_DEFINE1 37-40",
		"kthread_should_stop@12 in run",
		"for_each_cpu@14 in run",
		"work@15 in run",
		"live@20 in run",
		"f@22 in run",
		"g@33 in split",
		"close_fd@39 in SYSCALL_DEFINE1",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	protos := scanCTruth([]byte(src)).protos
	for _, p := range []string{"panic", "helper"} {
		if !slices.Contains(protos, p) {
			t.Errorf("prototype %s not found in %v", p, protos)
		}
	}
	if slices.Contains(protos, "run") || slices.Contains(protos, "table") {
		t.Errorf("a definition taken for a prototype: %v", protos)
	}
}

// FuzzScanCTruth checks that the lexer never panics and that what it
// reports stays within the input.
func FuzzScanCTruth(f *testing.F) {
	f.Add([]byte("int f(void) { return g(1); }\n"))
	f.Add([]byte("#if 0\n{\n#else\n}\n#endif\n'\\"))
	f.Add([]byte("/* unterminated\n\"x\\\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		s := scanCTruth(src)
		lines := strings.Count(string(src), "\n") + 1
		for _, c := range s.calls {
			if c.line < 1 || c.line > lines || c.fn < 0 || c.fn >= len(s.funcs) {
				t.Fatalf("call %+v out of range (%d lines, %d functions)", c, lines, len(s.funcs))
			}
		}
		for _, fn := range s.funcs {
			if fn.line < 1 || fn.end < fn.line || fn.end > lines {
				t.Fatalf("function %+v out of range (%d lines)", fn, lines)
			}
		}
	})
}
