package extract

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
)

const rustSrc = `//! Shapes.

use std::fmt;

/// A shape with an area.
pub trait Shape: fmt::Debug + Send {
    type Unit;
    fn area(&self) -> f64;
    fn name(&self) -> String { String::from("shape") }
}

#[derive(Debug, Clone)]
pub struct Circle<T = f64> { r: T }

pub(crate) enum Kind { Round, Square(u32) }
union Bits { i: u32, f: f32 }
pub type Shapes = Vec<Box<dyn Shape<Unit = f64>>>;

impl<T: Copy> Circle<T> {
    pub fn new(r: T) -> Self { Self { r } }
    fn radius(&self) -> T { self.r }
}

impl Shape for Circle {
    type Unit = f64;
    fn area(&self) -> f64 {
        fn square(x: f64) -> f64 { x * x }
        std::f64::consts::PI * square(self.r)
    }
}

impl<'a> fmt::Display for &'a Circle {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { write!(f, "circle") }
}

pub mod util {
    pub fn clamp(x: f64) -> f64 { x.max(0.0) }
    pub(self) fn secret() {}
    pub(super) fn shared() {}
}

mod declared_elsewhere;

#[macro_export]
macro_rules! circle {
    ($r:expr) => { $crate::Circle::new($r) };
}

macro_rules! private_macro { () => {} }

extern "C" {
    fn abs(x: i32) -> i32;
}
`

func TestRustSymbols(t *testing.T) {
	f := extractString(t, "src/shapes.rs", rustSrc)
	expectSymbols(t, f,
		"trait crate.shapes.Shape parent= line=6-10",
		"type crate.shapes.Shape.Unit parent=Shape line=7-7",
		"method crate.shapes.Shape.area parent=Shape line=8-8",
		"method crate.shapes.Shape.name parent=Shape line=9-9",
		"struct crate.shapes.Circle parent= line=13-13",
		"enum crate.shapes.Kind parent= line=15-15",
		"struct crate.shapes.Bits parent= line=16-16",
		"type crate.shapes.Shapes parent= line=17-17",
		"method crate.shapes.Circle.new parent=Circle line=20-20",
		"method crate.shapes.Circle.radius parent=Circle line=21-21",
		"type crate.shapes.Circle.Unit parent=Circle line=25-25",
		"method crate.shapes.Circle.area parent=Circle line=26-29",
		"function crate.shapes.Circle.area.square parent=area line=27-27",
		"method crate.shapes.Circle.fmt parent=Circle line=33-33",
		"module crate.shapes.util parent= line=36-40",
		"function crate.shapes.util.clamp parent=util line=37-37",
		"function crate.shapes.util.secret parent=util line=38-38",
		"function crate.shapes.util.shared parent=util line=39-39",
		"function crate.shapes.circle parent= line=45-47",
		"function crate.shapes.private_macro parent= line=49-49",
		"function crate.shapes.abs parent= line=52-52",
	)
}

func TestRustModulePaths(t *testing.T) {
	for path, want := range map[string]string{
		"src/lib.rs":                   "crate",
		"src/main.rs":                  "crate",
		"src/net.rs":                   "crate.net",
		"src/net/mod.rs":               "crate.net",
		"src/net/tcp.rs":               "crate.net.tcp",
		"crates/core/src/lib.rs":       "crate",
		"crates/core/src/io/reader.rs": "crate.io.reader",
		"src/bin/tool.rs":              "crate.bin.tool",
		"tests/api.rs":                 "tests.api",
		"tests/common/mod.rs":          "tests.common",
		"build.rs":                     "build",
	} {
		if got := extractString(t, path, "fn f() {}\n").Module; got != want {
			t.Errorf("module of %s = %q, want %q", path, got, want)
		}
	}
}

func TestRustSignaturesDocsBases(t *testing.T) {
	src := `/// Adds.
///
/// Twice over.
#[inline]
#[must_use]
pub fn add<T>(a: T, b: T) -> T
where
    T: std::ops::Add<Output = T>,
{
    a + b
}

/** Block doc. */
pub struct Unit;

// Plain comment.
fn plain() {}

/// Doc above a plain comment.
// TODO: tidy.
fn noted() {}

//! Inner doc, not for the next item.
fn inner() {}

#[derive(Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
enum Mode { A }

pub trait Both: Read + Write + 'static {}
`
	f := extractString(t, "src/lib.rs", src)
	for q, want := range map[string][2]string{
		"crate.add":   {"pub fn add<T>(a: T, b: T) -> T where T: std::ops::Add<Output = T>,", "Adds.\n\nTwice over."},
		"crate.Unit":  {"pub struct Unit", "Block doc."},
		"crate.plain": {"fn plain()", ""},
		"crate.noted": {"fn noted()", "Doc above a plain comment."},
		"crate.inner": {"fn inner()", ""},
		"crate.Mode":  {"enum Mode", ""},
	} {
		s := symbol(t, f, q)
		if s.Signature != want[0] || s.Doc != want[1] {
			t.Errorf("%s: signature %q doc %q, want %q %q", q, s.Signature, s.Doc, want[0], want[1])
		}
	}
	if s := symbol(t, f, "crate.add"); s.StartLine != 6 || s.EndLine != 11 {
		t.Errorf("add lines %d-%d, want 6-11", s.StartLine, s.EndLine)
	}
	if got := symbol(t, f, "crate.Mode").Bases; len(got) != 3 || got[2] != "serde::Serialize" {
		t.Errorf("bases of Mode = %q", got)
	}
	if got := symbol(t, f, "crate.Both").Bases; len(got) != 2 || got[0] != "Read" || got[1] != "Write" {
		t.Errorf("bases of Both = %q", got)
	}
}

func TestRustExported(t *testing.T) {
	f := extractString(t, "src/shapes.rs", rustSrc)
	for q, want := range map[string]bool{
		"crate.shapes.Shape":              true,
		"crate.shapes.Shape.area":         true, // the trait's visibility
		"crate.shapes.Circle":             true,
		"crate.shapes.Kind":               true, // pub(crate)
		"crate.shapes.Bits":               false,
		"crate.shapes.Circle.new":         true,
		"crate.shapes.Circle.radius":      false,
		"crate.shapes.Circle.area":        true, // trait impl
		"crate.shapes.Circle.area.square": false,
		"crate.shapes.util":               true,
		"crate.shapes.util.secret":        false, // pub(self)
		"crate.shapes.util.shared":        true,
		"crate.shapes.circle":             true, // #[macro_export]
		"crate.shapes.private_macro":      false,
		"crate.shapes.abs":                false,
	} {
		if got := symbol(t, f, q).Exported; got != want {
			t.Errorf("exported(%s) = %v, want %v", q, got, want)
		}
	}
}

func TestRustImports(t *testing.T) {
	src := `extern crate alloc;
extern crate serde_json as json;
use std::collections::HashMap;
use std::io::{self, Read as R, prelude::*};
use crate::net::{tcp::{Conn, Listener as L}, udp};
use super::config::Config;
use super::super::root;
use self::inner::Helper as H;
pub use regex;
use log as logging;
use ::std::fmt;
use {alpha, beta::Gamma};

mod inner {
    use super::HashMap;
    mod deeper {
        use super::super::Thing;
    }
}
`
	f := extractString(t, "src/net/client.rs", src)
	expectImports(t, f,
		"alloc @1",
		"serde_json as json @2",
		"std::collections {HashMap} @3",
		"std::io @4",
		"std::io {Read as R} @4",
		"std::io::prelude {*} @4",
		"crate::net::tcp {Conn, Listener as L} => crate.net.tcp @5",
		"crate::net {udp} => crate.net @5",
		"super::config {Config} => crate.net.config @6",
		"super::super {root} => crate @7",
		"self::inner {Helper as H} => crate.net.client.inner @8",
		"regex @9",
		"log as logging @10",
		"::std {fmt} @11",
		"alpha @12",
		"beta {Gamma} @12",
		"super {HashMap} => crate.net.client @15",
		"super::super {Thing} => crate.net.client @17",
	)
}

func TestRustCalls(t *testing.T) {
	src := `static CONFIG: Lazy<Config> = Lazy::new(|| load_config());

impl Server {
    pub fn handle(&mut self, req: Request) -> Response {
        let id = next_id();
        self.log(id);
        req.headers().get("x").map(|h| parse(h)).unwrap_or_default();
        let r = Response::new(200);
        let v = items.iter().collect::<Vec<_>>();
        let n = size_of::<u64>();
        println!("{} {}", format_id(id), self.name());
        assert!(!is_closed(&r), "closed: {}", Error::describe(id));
        vec![make(1), Point(2)];
        tracing::info!("done");
        r
    }
}
`
	f := extractString(t, "src/server.rs", src)
	expectCalls(t, f,
		"crate.server -> Lazy.new @1",
		"crate.server -> load_config @1",
		"crate.server.Server.handle -> next_id @5",
		"crate.server.Server.handle -> self.log @6",
		"crate.server.Server.handle -> req.headers @7",
		"crate.server.Server.handle -> req.headers().get @7",
		"crate.server.Server.handle -> req.headers().get(\"x\").map @7",
		"crate.server.Server.handle -> parse @7",
		"crate.server.Server.handle -> req.headers().get(\"x\").map(|h| parse(h)).unwrap_or_default @7",
		"crate.server.Server.handle -> Response.new @8",
		"crate.server.Server.handle -> items.iter @9",
		"crate.server.Server.handle -> items.iter().collect @9",
		"crate.server.Server.handle -> size_of @10",
		"crate.server.Server.handle -> println @11",
		"crate.server.Server.handle -> format_id @11",
		"crate.server.Server.handle -> self.name @11",
		"crate.server.Server.handle -> assert @12",
		"crate.server.Server.handle -> is_closed @12",
		"crate.server.Server.handle -> Error.describe @12",
		"crate.server.Server.handle -> vec @13",
		"crate.server.Server.handle -> make @13",
		"crate.server.Server.handle -> Point @13",
		"crate.server.Server.handle -> tracing.info @14",
	)
}

func TestRustSyntaxErrors(t *testing.T) {
	src := `pub fn good() -> u32 { 1 }

fn broken( {
    let x = ;
}

pub struct After { x: u32 }

impl After {
    pub fn get(&self) -> u32 { self.x }
}
`
	f := extractString(t, "src/lib.rs", src)
	if len(f.Errors) == 0 {
		t.Fatal("no syntax errors reported")
	}
	for _, q := range []string{"crate.good", "crate.After", "crate.After.get"} {
		symbol(t, f, q)
	}
}

func TestRustBindings(t *testing.T) {
	f := extractString(t, "src/search.rs", `pub struct Worker {
    searcher: Searcher,
    sink: Box<dyn Sink>,
    count: u64,
}

impl<S: Sink + Send> Worker<S> {
    fn run<M>(&mut self, path: &Path, mut m: M, (a, b): (u8, u8)) where M: Matcher {
        let s: Searcher = make();
        let mut p = Printer::new(path);
        let (x, y) = pair();
        {
            let q = Query { text: "a" };
        }
        let later;
    }
}
`)
	var got []string
	for _, b := range f.Bindings {
		got = append(got, fmt.Sprintf("%s %s type=%q value=%q line=%d end=%d", b.Scope, b.Target, b.Type, b.Value, b.Line, b.EndLine))
	}
	want := []string{
		`crate.search.Worker searcher type="Searcher" value="" line=2 end=0`,
		`crate.search.Worker sink type="Box<dyn Sink>" value="" line=3 end=0`,
		`crate.search.Worker count type="u64" value="" line=4 end=0`,
		`crate.search.Worker.run S type="impl Sink + Send" value="" line=8 end=0`,
		`crate.search.Worker.run M type="impl Matcher" value="" line=8 end=0`,
		`crate.search.Worker.run path type="&Path" value="" line=8 end=0`,
		`crate.search.Worker.run m type="M" value="" line=8 end=0`,
		`crate.search.Worker.run s type="Searcher" value="make()" line=9 end=16`,
		`crate.search.Worker.run p type="" value="Printer::new(path)" line=10 end=16`,
		`crate.search.Worker.run q type="" value="Query { text: \"a\" }" line=13 end=14`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("bindings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestRustCrateNames: a crate's Cargo.toml names its modules, so the
// crates of a workspace stay apart and `crate::` means the caller's own.
func TestRustCrateNames(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"Cargo.toml":                      "[workspace]\nmembers = [\"crates/*\"]\n",
		"src/main.rs":                     "use crate::app::run;\nfn main() { run() }\n",
		"crates/searcher/Cargo.toml":      "[package]\nname = \"grep-searcher\"\nversion = \"0.1.0\"\n",
		"crates/searcher/src/lib.rs":      "pub use crate::searcher::Searcher;\nmod searcher;\n",
		"crates/searcher/src/searcher.rs": "use super::sink::Sink;\npub struct Searcher;\n",
		"crates/cli/Cargo.toml":           "[package]\nname = \"cli\"\n[lib]\nname = \"grep_cli\"\n",
		"crates/cli/src/lib.rs":           "pub fn f() {}\n",
		"crates/bad/Cargo.toml":           "[package\nname = ",
		"crates/bad/src/lib.rs":           "pub fn g() {}\n",
		"crates/searcher/tests/api.rs":    "use crate::common::setup;\nfn t() {}\n",
	})
	ex, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	for _, c := range []struct{ path, module, imports string }{
		{"src/main.rs", "crate", "crate::app [run] -> crate.app"},
		{"crates/searcher/src/lib.rs", "grep_searcher", "crate::searcher [Searcher] -> grep_searcher.searcher"},
		{"crates/searcher/src/searcher.rs", "grep_searcher.searcher", "super::sink [Sink] -> grep_searcher.sink"},
		{"crates/cli/src/lib.rs", "grep_cli", ""},
		{"crates/bad/src/lib.rs", "crate", ""},
		{"crates/searcher/tests/api.rs", "crates.searcher.tests.api", "crate::common [setup] -> crates.searcher.tests.api.common"},
	} {
		f, err := ex.File(context.Background(), c.path)
		if err != nil {
			t.Fatal(err)
		}
		var ims []string
		for _, im := range f.Imports {
			var names []string
			for _, n := range im.Names {
				names = append(names, n.Name)
			}
			ims = append(ims, fmt.Sprintf("%s %v -> %s", im.Path, names, im.Resolved))
		}
		if f.Module != c.module || strings.Join(ims, "; ") != c.imports {
			t.Errorf("%s: module %q imports %q, want %q and %q", c.path, f.Module, strings.Join(ims, "; "), c.module, c.imports)
		}
	}
}

// TestRustDeclarations: a trait's required method and an extern block's
// function have no body; a provided method has one.
func TestRustDeclarations(t *testing.T) {
	f := extractString(t, "src/sink.rs", `pub trait Sink {
    fn matched(&mut self) -> bool;
    fn begin(&mut self) -> bool { true }
}
extern "C" { fn abs(x: i32) -> i32; }
`)
	for q, want := range map[string]bool{"crate.sink.Sink.matched": true, "crate.sink.Sink.begin": false, "crate.sink.abs": true} {
		if got := symbol(t, f, q).Declaration; got != want {
			t.Errorf("%s: Declaration %v, want %v", q, got, want)
		}
	}
}

// FuzzRustCrateName: any Cargo.toml gives an identifier or "".
func FuzzRustCrateName(f *testing.F) {
	for _, seed := range []string{
		"[package]\nname = \"grep-searcher\"\n",
		"[package]\nname = \"cli\"\n[lib]\nname = \"grep_cli\"\n",
		"[workspace]\nmembers = [\"crates/*\"]\n",
		"[package\nname = ",
		"[package]\nname = \"../../etc\"\n",
		"[lib]\nname = 3\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, manifest string) {
		root := t.TempDir()
		writeFiles(t, root, map[string]string{"Cargo.toml": manifest})
		dir, err := os.OpenRoot(root)
		if err != nil {
			t.Fatal(err)
		}
		defer dir.Close()
		name := newProject(root, dir).rustCrate(".")
		if name != "" && !isRustIdent(name) {
			t.Errorf("crate name %q is no identifier", name)
		}
	})
}

// TestRustPatternBindings: an enum's variant fields and the names a
// tuple struct pattern binds, for match arms' receivers.
func TestRustPatternBindings(t *testing.T) {
	f := extractString(t, "src/m.rs", `enum Imp {
    Standard(u8, StandardMatcher),
    Word { inner: WordMatcher },
}

fn find(imp: &Imp) {
    match *imp {
        Standard(_, ref m) => m.find(),
        Imp::Word { ref inner } => inner.find(),
    }
}
`)
	var got []string
	for _, b := range f.Bindings {
		got = append(got, fmt.Sprintf("%s %s type=%q value=%q index=%d line=%d end=%d", b.Scope, b.Target, b.Type, b.Value, b.Index, b.Line, b.EndLine))
	}
	want := []string{
		`crate.m.Imp Standard.0 type="u8" value="" index=0 line=2 end=0`,
		`crate.m.Imp Standard.1 type="StandardMatcher" value="" index=0 line=2 end=0`,
		`crate.m.Imp Word.inner type="WordMatcher" value="" index=0 line=3 end=0`,
		`crate.m.find imp type="&Imp" value="" index=0 line=6 end=0`,
		`crate.m.find m type="" value="pattern Standard" index=1 line=8 end=8`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("bindings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
