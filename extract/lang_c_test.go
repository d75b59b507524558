package extract

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// extractTree writes files under a temporary root and extracts path from
// it, so that includes and module names can see the other files.
func extractTree(t *testing.T, files map[string]string, path string) *File {
	t.Helper()
	root := t.TempDir()
	for name, src := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ex, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	f, err := ex.File(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

const cHeader = `#ifndef LIST_H
#define LIST_H
#include <stddef.h>

#define LIST_MAX 64
#define LIST_LEN(l) ((l)->len)

struct list {
    struct node {
        int value;
    } *head;
    size_t len;
};

typedef struct { int x, y; } point;
typedef struct node node;
typedef struct list list_t;
typedef enum { RED, GREEN } color;
typedef int (*visit_fn)(int);
union num { int i; float f; };
enum mode { FAST, SLOW };

struct list *list_new(void);
char **list_names(const struct list *l);
void (*on_error(void (*cb)(int)))(int);
int (*current_visitor)(int);
extern int list_count;
static inline size_t list_len(const struct list *l) { return l->len; }
int list_free(struct list *l) LIST_NOEXCEPT;
#endif
`

func TestCSymbols(t *testing.T) {
	f := extractString(t, "src/list.h", cHeader)
	expectSymbols(t, f,
		"function src.list.LIST_LEN parent= line=6-6",
		"struct src.list.list parent= line=8-13",
		"struct src.list.list.node parent=list line=9-11",
		"struct src.list.point parent= line=15-15",
		"type src.list.node parent= line=16-16",
		"type src.list.list_t parent= line=17-17",
		"enum src.list.color parent= line=18-18",
		"type src.list.visit_fn parent= line=19-19",
		"struct src.list.num parent= line=20-20",
		"enum src.list.mode parent= line=21-21",
		"function src.list.list_new parent= line=23-23",
		"function src.list.list_names parent= line=24-24",
		"function src.list.on_error parent= line=25-25",
		"function src.list.list_len parent= line=28-28",
		"function src.list.list_free parent= line=29-29",
	)
	if len(f.Errors) == 0 {
		t.Errorf("the LIST_NOEXCEPT macro should leave a syntax error")
	}
}

func TestCPrototypesOnlyInHeaders(t *testing.T) {
	src := `static int helper(int);
int api(void);

static int helper(int x) { return x * 2; }

int
api(void)
{
    int local(int);
    return helper(1);
}
`
	f := extractString(t, "lib/api.c", src)
	expectSymbols(t, f,
		"function lib.api.helper parent= line=4-4",
		"function lib.api.api parent= line=7-11",
	)
	f = extractString(t, "lib/api.h", src)
	expectSymbols(t, f,
		"function lib.api.helper parent= line=1-1",
		"function lib.api.api parent= line=2-2",
		"function lib.api.helper parent= line=4-4",
		"function lib.api.api parent= line=7-11",
		"function lib.api.api.local parent=api line=9-9",
	)
}

func TestCSignatures(t *testing.T) {
	f := extractString(t, "list.h", cHeader)
	expectSignatures(t, f, map[string]string{
		"list.LIST_LEN":   "#define LIST_LEN(l)",
		"list.list":       "struct list",
		"list.point":      "typedef struct {…} point",
		"list.list_t":     "typedef struct list list_t",
		"list.visit_fn":   "typedef int (*visit_fn)(int)",
		"list.list_names": "char **list_names(const struct list *l)",
		"list.on_error":   "void (*on_error(void (*cb)(int)))(int)",
		"list.list_len":   "static inline size_t list_len(const struct list *l)",
		"list.list_free":  "int list_free(struct list *l) LIST_NOEXCEPT",
	})
	f = extractString(t, "gnu.c", "static int\nlong_name (int a,\n           int b)\n{\n  return a;\n}\n")
	if got, want := symbol(t, f, "gnu.long_name").Signature, "static int long_name (int a, int b)"; got != want {
		t.Errorf("signature = %q, want %q", got, want)
	}
}

func TestCDocs(t *testing.T) {
	src := `/**
 * Creates a list.
 *
 * Free it with list_free.
 */
struct list *list_new(void);

/// Frees l.
/// Never fails.
void list_free(struct list *l);

// Not a doc: a blank line follows.

int list_len(void);
int list_count; /* trailing comment of a variable */
int list_cap(void);

/* A typedef's comment documents the struct too. */
typedef struct point {
    int x;
} point_t;

#define SQUARE(x) ((x) * (x)) // trailing, not a doc
/** Cubes x. */ #define CUBE(x) ((x) * (x) * (x))
`
	f := extractString(t, "list.h", src)
	for q, want := range map[string]string{
		"list.list_new":  "Creates a list.\n\nFree it with list_free.",
		"list.list_free": "Frees l.\nNever fails.",
		"list.list_len":  "",
		"list.list_cap":  "",
		"list.point_t":   "A typedef's comment documents the struct too.",
		"list.point":     "A typedef's comment documents the struct too.",
		"list.SQUARE":    "",
	} {
		if got := symbol(t, f, q).Doc; got != want {
			t.Errorf("doc of %s = %q, want %q", q, got, want)
		}
	}
}

func TestCExported(t *testing.T) {
	src := `#define MAX(a, b) ((a) > (b) ? (a) : (b))
struct pair { int a, b; };
static int hidden(void) { return 0; }
int visible(void) { return hidden(); }
`
	for _, tc := range []struct {
		path string
		want map[string]bool
	}{
		{"x.c", map[string]bool{"x.MAX": false, "x.pair": false, "x.hidden": false, "x.visible": true}},
		{"x.h", map[string]bool{"x.MAX": true, "x.pair": true, "x.hidden": false, "x.visible": true}},
	} {
		f := extractString(t, tc.path, src)
		for q, want := range tc.want {
			if got := symbol(t, f, q).Exported; got != want {
				t.Errorf("%s: exported(%s) = %v, want %v", tc.path, q, got, want)
			}
		}
	}
}

func TestCImports(t *testing.T) {
	files := map[string]string{
		"src/main.c": `#include <stdio.h>
#include < sys/types.h >
#include "util.h"
#include "net/conn.h"
#include "include/config.h"
#include "missing.h"
#include "../outside.h"
#include CONFIG_HEADER
`,
		"src/util.h":          "int util(void);\n",
		"src/net/conn.h":      "int conn(void);\n",
		"include/config.h":    "#define CONFIG 1\n",
		"include/unrelated.h": "\n",
	}
	f := extractTree(t, files, "src/main.c")
	expectImports(t, f,
		"stdio.h @1",
		"sys/types.h @2",
		"util.h => src.util @3",
		"net/conn.h => src.net.conn @4",
		"include/config.h => include.config @5",
		"missing.h @6",
		"../outside.h @7",
		"CONFIG_HEADER @8",
	)
}

func TestCCalls(t *testing.T) {
	src := `#include <stdio.h>
REGISTER_MODULE(list);

static int twice(int x) { return x * 2; }

int run(struct ctx *c, int (*fp)(int))
{
    c->ops->start(c);
    c->stats.count(1);
    (*fp)(2);
    fp(3);
    printf("%d\n", twice(MAX(1, 2)));
    return c->done ? 0 : cleanup(c);
}
`
	f := extractString(t, "run.c", src)
	expectCalls(t, f,
		"run -> REGISTER_MODULE @2",
		"run.run -> c->ops.start @8",
		"run.run -> c->stats.count @9",
		"run.run -> fp @11",
		"run.run -> printf @12",
		"run.run -> twice @12",
		"run.run -> MAX @12",
		"run.run -> cleanup @13",
	)
	if c := f.Calls[1]; c.Receiver != "c->ops" || c.Name != "start" || c.Line != 8 || c.Column != 13 {
		t.Errorf("call = %+v, want start with receiver c->ops at 8:13", c)
	}
}

func TestCSyntaxErrors(t *testing.T) {
	src := `int ok(void) { return 1; }

int broken(int x {
    return x +;
}

struct after { int y; };

int later(void) { return ok(); }
`
	f := extractString(t, "bad.c", src)
	if len(f.Errors) == 0 {
		t.Fatal("no syntax errors reported")
	}
	got := map[string]bool{}
	for _, s := range f.Symbols {
		got[s.Qualified] = true
	}
	for _, q := range []string{"bad.ok", "bad.after", "bad.later"} {
		if !got[q] {
			t.Errorf("symbol %s lost to the syntax error; have %v", q, got)
		}
	}
}

func TestCMacroHeavyCode(t *testing.T) {
	// Code that only a preprocessor understands: the extractor must not
	// invent symbols from keywords and must keep what it can.
	src := `DECLARE_THING(foo)
typedef int (*cb_t)(int);
EXPORT int real(void);
DEFINE_HANDLER(on_click) {
    go();
}
typedef BOOL (WINAPI *Fn)(HANDLE, DWORD);
int also_real(void);
typedef struct {
    PyObject_HEAD
    int x;
} Obj;
`
	f := extractString(t, "m.h", src)
	for _, s := range f.Symbols {
		if cKeywords[s.Name] || s.Name == "DWORD" || s.Name == "HANDLE" {
			t.Errorf("symbol %q made from debris", s.Name)
		}
	}
	for _, q := range []string{"m.real", "m.on_click", "m.also_real", "m.Obj"} {
		symbol(t, f, q)
	}
	expectCalls(t, f, "m.on_click -> go @5")
}

func TestCHeaderLanguage(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want string
	}{
		{"#include <stdio.h>\nint f(void);\n", "c"},
		{"#ifdef __cplusplus\nextern \"C\" {\n#endif\nint f(void);\n#ifdef __cplusplus\n}\n#endif\n", "c"},
		{"#ifdef __cplusplus\ntemplate <class T> T id(T);\n#endif\n", "c"},
		{"#ifndef __cplusplus\nint f(void);\n#else\nnamespace x {}\n#endif\n", "c"},
		{"/* class notes */\n// namespace too\nint f(const char *s = \"a::b\");\n", "c"},
		{"#pragma once\n#include <vector>\n", "cpp"},
		{"namespace app {\nint f();\n}\n", "cpp"},
		{"class Widget;\n", "cpp"},
		{"template <typename T>\nT max(T a, T b);\n", "cpp"},
		{"int f() { return std::abs(-1); }\n", "cpp"},
		{"struct S {\npublic:\n  int x;\n};\n", "cpp"},
	} {
		if got := LanguageOf("x.h", []byte(tc.src)); got == nil || got.Name != tc.want {
			name := "nil"
			if got != nil {
				name = got.Name
			}
			t.Errorf("LanguageOf(x.h, %q) = %s, want %s", tc.src, name, tc.want)
		}
	}
	for _, p := range []string{"a.c", "b.h"} {
		if l := LanguageOf(p, nil); l == nil || l.Name != "c" {
			t.Errorf("LanguageOf(%s) is not c", p)
		}
	}
}

func TestCBrokenPrototypeSignature(t *testing.T) {
	// Two in a row nest in one ERROR: the first is kept, ending on its
	// own line; the second is lost.
	src := "/* Removes a file. */\nextern int remove (const char *__filename) __THROW;\nextern int rename (const char *__old) __THROW;\n"
	f := extractString(t, "stdio.h", src)
	s := symbol(t, f, "stdio.remove")
	if s.Signature != "extern int remove (const char *__filename) __THROW" || s.Doc != "Removes a file." || !s.Exported || s.StartLine != 2 || s.EndLine != 2 {
		t.Errorf("remove = %+v", s)
	}
	if s := symbol(t, extractString(t, "x.h", "static int hidden (void) __THROW;\n"), "x.hidden"); s.Exported {
		t.Errorf("static prototype exported: %+v", s)
	}
	if f = extractString(t, "stdio.c", src); len(f.Symbols) != 0 {
		t.Errorf("prototypes in a source file: %v", f.Symbols)
	}
}

func TestCLongInputs(t *testing.T) {
	// Deeply nested declarators and many members must not blow up.
	var b strings.Builder
	b.WriteString("int ")
	for range 200 {
		b.WriteString("(*")
	}
	b.WriteString("deep")
	for range 200 {
		b.WriteString(")(int)")
	}
	b.WriteString(";\nint after(void);\n")
	f := extractString(t, "deep.h", b.String())
	symbol(t, f, "deep.after")
}

// TestCDeclarations: prototypes, extern and K&R declarations and
// prototypes an attribute macro breaks are marked Declaration;
// definitions, K&R ones and a header's static inline functions are not.
func TestCDeclarations(t *testing.T) {
	src := `int proto(void);
extern void *ext(const char *s);
int kr();
int broken(void) __THROW;
static inline int inl(int x) { return x; }
int old(a, b)
int a;
char *b;
{
	return a;
}
#define twice(x) ((x) * 2)
`
	f := extractString(t, "include/api.h", src)
	want := map[string]bool{"proto": true, "ext": true, "kr": true, "broken": true, "inl": false, "old": false, "twice": false}
	for name, decl := range want {
		if s := symbol(t, f, "include.api."+name); s.Declaration != decl {
			t.Errorf("%s: Declaration %v, want %v", name, s.Declaration, decl)
		}
	}
	if len(f.Symbols) != len(want) {
		t.Errorf("%d symbols, want %d: %v", len(f.Symbols), len(want), f.Symbols)
	}
}

// TestCStatementMacros: a loop macro used as a statement is a call of
// the macro, never a function: the function around it ends where it
// does, the calls in the loop's body and the functions after it keep
// their names (Linux's kernel/sched/core.c).
func TestCStatementMacros(t *testing.T) {
	src := `unsigned long long nr_context_switches(void)
{
	int i;
	unsigned long long sum = 0;

	for_each_possible_cpu(i)
		sum += cpu_rq(i)->nr_switches;

	return sum;
}

unsigned int nr_iowait_cpu(int cpu)
{
	return atomic_read(&cpu_rq(cpu)->nr_iowait);
}

int count(void)
{
	int cpu;
	for_each_online_cpu(cpu)
		work(cpu);
	for_each_online_cpu(cpu) {
		work(cpu);
	}
	list_for_each_entry(pos, head, list) {
		use(pos);
	}
	return 0;
}
`
	f := extractString(t, "kernel/sched/core.c", src)
	expectSymbols(t, f,
		"function kernel.sched.core.nr_context_switches parent= line=1-10",
		"function kernel.sched.core.nr_iowait_cpu parent= line=12-15",
		"function kernel.sched.core.count parent= line=17-29",
	)
	expectCalls(t, f,
		"kernel.sched.core.nr_context_switches -> for_each_possible_cpu @6",
		"kernel.sched.core.nr_context_switches -> cpu_rq @7",
		"kernel.sched.core.nr_iowait_cpu -> atomic_read @14",
		"kernel.sched.core.nr_iowait_cpu -> cpu_rq @14",
		"kernel.sched.core.count -> for_each_online_cpu @20",
		"kernel.sched.core.count -> work @21",
		"kernel.sched.core.count -> for_each_online_cpu @22",
		"kernel.sched.core.count -> work @23",
		"kernel.sched.core.count -> list_for_each_entry @25",
		"kernel.sched.core.count -> use @26",
	)
}

// TestCMacroHeads: attribute macros with arguments, a loop macro in a
// do statement's while, a head a macro writes and a conditional inside
// parentheses no longer break the functions around them (each swallowed
// or hid functions of Linux).
func TestCMacroHeads(t *testing.T) {
	src := `static __printf(4, 0)
struct task_struct *create_on_node(int (*fn)(void *data), void *data,
				   const char namefmt[], va_list args)
{
	wake_up_process(task);
	return task;
}

void lock_it(struct foo *f) __acquires(f->lock)
{
	spin_lock(&f->lock);
}

int attach(struct task_struct *leader)
{
	do {
		add_src(task);
	} while_each_thread(leader, task);
	return 0;
}

SYSCALL_DEFINE3(setpriority, int, which, int, who, int, niceval)
{
	return find_task_by_vpid(who) != 0;
}

int after(void)
{
	return attach(0);
}

static void __put_region(struct vm_region *region)
	__releases(region_sem)
{
	up_write(&region_sem);
}

SYSCALL_DEFINE1(swapoff, const char __user *, specialfile)
{
	int nid;
	for_each_node(nid) {
		prio(nid);
	}
	return 0;
}

int copy_creds(struct task_struct *p, unsigned long clone_flags)
{
	if (
#ifdef CONFIG_KEYS
		!p->cred->thread_keyring &&
#endif
		clone_flags & CLONE_THREAD
	    ) {
		return get_cred(p);
	}
	return prepare_creds();
}
`
	f := extractString(t, "kernel/sys.c", src)
	expectSymbols(t, f,
		"function kernel.sys.create_on_node parent= line=2-7",
		"function kernel.sys.lock_it parent= line=9-12",
		"function kernel.sys.attach parent= line=14-20",
		"function kernel.sys.setpriority parent= line=22-25",
		"function kernel.sys.after parent= line=27-30",
		"function kernel.sys.__put_region parent= line=32-36",
		"function kernel.sys.swapoff parent= line=38-45",
		"function kernel.sys.copy_creds parent= line=47-58",
	)
	expectCalls(t, f,
		"kernel.sys.create_on_node -> wake_up_process @5",
		"kernel.sys.lock_it -> spin_lock @11",
		"kernel.sys.attach -> add_src @17",
		"kernel.sys.attach -> while_each_thread @18",
		"kernel.sys.setpriority -> SYSCALL_DEFINE3 @22",
		"kernel.sys.setpriority -> find_task_by_vpid @24",
		"kernel.sys.after -> attach @29",
		"kernel.sys.__put_region -> up_write @35",
		"kernel.sys.swapoff -> SYSCALL_DEFINE1 @38",
		"kernel.sys.swapoff -> for_each_node @41",
		"kernel.sys.swapoff -> prio @42",
		"kernel.sys.copy_creds -> get_cred @55",
		"kernel.sys.copy_creds -> prepare_creds @57",
	)
}
