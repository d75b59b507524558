package extract

import (
	"fmt"
	"slices"
	"testing"
)

// TestPlaces checks, per language, which anonymous functions are places
// and how they are named: callbacks by their call, values by their
// name or key, returned functions; none inside a named function, none
// invoked where written.
func TestPlaces(t *testing.T) {
	cases := []struct {
		path, src string
		want      []string // "qualified line-end"
		calls     string   // a call made in a place, and its caller
	}{
		{"cmd/root.go", `package cmd

var rootCmd = &cobra.Command{
	Use: "app",
	Run: func(cmd *cobra.Command, args []string) {
		serve(args)
	},
}

var handlers = map[string]func(){
	"stop": func() { stop() },
}

var Usage = func() { printUsage() }

var _ = func() {}

var answer = func() int { return 42 }()

func init() {
	register(func() { inside() })
}
`, []string{"cmd.rootCmd.Run 5-7", "cmd.handlers.stop 11-11", "cmd.Usage 14-14", "cmd.<function> 16-16"}, "serve cmd"},
		{"routes/web.php", `<?php
Route::get('/users', function () {
    return User::all();
});
$app->post('/x', fn($r) => save($r));
$handler = function () { work(); };
class C {
    public function m() { array_map(function ($x) { return $x; }, []); }
}
`, []string{"routes.web.<callback of Route::get('/users')> 2-4", "routes.web.<callback of $app->post('/x')> 5-5", "routes.web.$handler 6-6"}, "all routes.web"},
		{"server/routes.go", `package server

func routes(mux *http.ServeMux) {
	mux.HandleFunc("/orders/archive", func(w http.ResponseWriter, r *http.Request) {
		archive(w)
	})
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
	go func() { watch() }()
}

func register(r *Router) {
	r.Get("/health", func(c *Ctx) error { return ok(c) })
}
`, []string{"server.routes.<callback of mux.HandleFunc(\"/orders/archive\")> 4-6", "server.register.<callback of r.Get(\"/health\")> 12-12"}, "archive server.routes"},
		// A test file's subtests stay their test's: questions about the
		// API do not ask for them.
		{"server/routes_test.go", `package server

func TestArchive(t *testing.T) {
	t.Run("empty input", func(t *testing.T) { check(t) })
}
`, nil, "check server.TestArchive"},
		{"config/app.php", `<?php
return function ($env) {
    return load($env);
};
`, []string{"config.app.<returned> 2-4"}, "load config.app"},
		{"app.rb", `get '/users' do
  list_users
end

class User < Base
  scope :active, -> { where(active: true) }
  before_save do
    normalize(self)
  end
  def name
    parts.map { |p| p.strip }
  end
end

Item = Struct.new(:sku) do
  def price; 1; end
end

describe "orders" do
  class Fake
    before_save do
      stub(self)
    end
  end
end
`, []string{"app.<callback of get('/users')> 1-3", "app.User.<callback of scope(:active)> 6-6", "app.User.<callback of before_save> 7-9",
			`app.<callback of describe("orders")> 19-25`, "app.Fake.<callback of before_save> 21-23"}, "normalize app.User"},
		{"spec.lua", `app:get("/users", function(req)
  return list_users(req)
end)
setup({ callback = function() work() end })
local signs = (function()
  local defined = false
  return function() defined = true end
end)()
local M = {}
function M.f()
  each(t, function(x) use(x) end)
end
return function(busted)
  run(busted)
end
`, []string{`spec.<callback of app:get("/users")> 1-3`, "spec.<callback> 4-4", "spec.<returned> 7-7", "spec.<returned> 13-15"}, "list_users spec"},
		{"Program.cs", `var app = builder.Build();
app.MapGet("/users", (Db db) => {
    return db.Users.ToList();
});
class A {
    Func<int, int> twice = x => x * 2;
    void M() { items.ForEach(x => Handle(x)); }
}
`, []string{`Program.<callback of app.MapGet("/users")> 2-4`, "Program.A.twice 6-6"}, "ToList Program"},
		{"Routes.kt", `val app = routing {
    get("/users") { call -> list(call) }
}
class A {
    val cb: () -> Unit = { go() }
    fun m() { items.forEach { handle(it) } }
}
`, []string{"Routes.<callback of routing> 1-3", `Routes.<callback of routing>.<callback of get("/users")> 2-2`, "Routes.A.cb 5-5"}, "list Routes"},
		{"main.swift", `app.get("users") { req in
    return list(req)
}
func m() { items.forEach { handle($0) } }
`, []string{`main.<callback of app.get("users")> 1-3`}, "list main"},
		{"src/re.rs", `static RE: Lazy<Regex> = Lazy::new(|| Regex::new("x").unwrap());
const F: fn(i32) -> i32 = |x| x + 1;
fn m() { v.iter().map(|x| f(x)); }
`, []string{"crate.re.<callback of Lazy::new> 1-1", "crate.re.F 2-2"}, "unwrap crate.re"},
		{"J.java", `class J {
  private final Runnable r = () -> { work(); };
  static { register("x", e -> handle(e)); }
  void m() { items.forEach(x -> use(x)); }
}
`, []string{"J.J.r 2-2", `J.J.<callback of register("x")> 3-3`}, "work J.J"},
		{"cmp.cpp", `auto cmp = [](int a, int b) { return less(a, b); };
void m() { std::sort(v.begin(), v.end(), [](int a, int b) { return a < b; }); }
`, []string{"cmp.cmp 1-1"}, "less cmp"},
		{"O.scala", `object O {
  val f = (x: Int) => g(x)
  route("/users") { req => list(req) }
  def m() = items.map(x => x + 1)
}
`, []string{"O.O.f 2-2", `O.O.<callback of route("/users")> 3-3`}, "list O.O"},
		{"urls.py", `urlpatterns = [path("health", lambda request: ok(request))]
square = lambda x: x * x
class V:
    key = staticmethod(lambda v: v.name)
    def m(self):
        return sorted(self.items, key=lambda i: i.rank)
`, []string{`urls.<callback of path("health")> 1-1`, "urls.V.<callback of staticmethod> 4-4"}, "ok urls"},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			f := extractString(t, c.path, c.src)
			var got []string
			for _, p := range f.Places {
				got = append(got, fmt.Sprintf("%s %d-%d", p.Qualified, p.StartLine, p.EndLine))
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("places:\n got %q\nwant %q", got, c.want)
			}
			// A place's calls stay its owner's: the call graph is as before.
			var name, caller string
			fmt.Sscan(c.calls, &name, &caller)
			found := false
			for _, call := range f.Calls {
				if call.Name == name {
					found = true
					if call.Caller != caller {
						t.Errorf("call of %s: caller %q, want %q", name, call.Caller, caller)
					}
				}
			}
			if !found {
				t.Errorf("no call of %s", name)
			}
		})
	}
}

// TestPlacesBounded checks that a file of many callbacks keeps at most
// maxPlaces of them.
func TestPlacesBounded(t *testing.T) {
	src := []byte("<?php\n")
	for i := range maxPlaces + 10 {
		src = fmt.Appendf(src, "on('e%d', function () { f(); });\n", i)
	}
	f := extractString(t, "events.php", string(src))
	if len(f.Places) != maxPlaces {
		t.Fatalf("%d places, want %d", len(f.Places), maxPlaces)
	}
}

// TestPlacesOnlyWhereNamed checks that the languages without place
// rules have none (JavaScript's anonymous functions are symbols).
func TestPlacesOnlyWhereNamed(t *testing.T) {
	f := extractString(t, "app.js", "app.get('/users', function (req, res) { res.send(list()); });\n")
	if len(f.Places) != 0 {
		t.Fatalf("places %+v in JavaScript", f.Places)
	}
	if len(f.Symbols) != 1 || f.Symbols[0].Name != "<callback of app.get('/users')>" {
		t.Fatalf("symbols %+v", f.Symbols)
	}
}

// TestPlaceAt checks that a line is placed in the innermost place that
// holds it, and in none outside every place.
func TestPlaceAt(t *testing.T) {
	places := []Place{
		{Name: "<callback of group>", StartLine: 2, EndLine: 10},
		{Name: "<callback of get('/a')>", StartLine: 4, EndLine: 6},
		{Name: "$handler", StartLine: 12, EndLine: 12},
	}
	for line, want := range map[int]string{1: "", 2: "<callback of group>", 5: "<callback of get('/a')>", 7: "<callback of group>", 11: "", 12: "$handler", 13: ""} {
		p, ok := PlaceAt(places, line)
		if ok != (want != "") || p.Name != want {
			t.Errorf("line %d: %q %v, want %q", line, p.Name, ok, want)
		}
	}
}
