package extract

import (
	"context"
	"slices"
	"testing"
)

// babelEmitter is a class as Babel compiles it for ES5: its methods are
// descriptors handed to the createClass helper, a field holding a
// function is assigned in the constructor through the defineProperty
// helper.
const babelEmitter = `"use strict";
function _createClass(Constructor, protoProps, staticProps) { return Constructor; }
function _defineProperty(obj, key, value) { obj[key] = value; return obj; }
var Emitter = /*#__PURE__*/function () {
  function Emitter() {
    var _this = this;
    _defineProperty(this, "onClose", function () {
      return _this.emit("close");
    });
    Object.defineProperty(this, "size", { get: function () { return 0; } });
  }
  _createClass(Emitter, [{
    key: "on",
    value: function on(name, fn) {
      return this;
    }
  }, {
    key: "emit",
    value: function emit(name) {
      return this.on(name, null);
    }
  }], [{
    key: "create",
    value: function create() {
      return new Emitter();
    }
  }]);
  return Emitter;
}();
exports.default = Emitter;
`

// TestJavaScriptBabelClasses: a Babel class's methods are its class's
// methods, named by their descriptors' keys, and the descriptors are
// no symbols; a field's function is named by the field.
func TestJavaScriptBabelClasses(t *testing.T) {
	f := extractString(t, "lib/emitter.js", babelEmitter)
	var names []string
	for _, s := range f.Symbols {
		names = append(names, string(s.Kind)+" "+s.Qualified)
	}
	for _, want := range []string{
		"method lib.emitter.Emitter.on", "method lib.emitter.Emitter.emit", "method lib.emitter.Emitter.create",
		"function lib.emitter.Emitter.onClose",
	} {
		if !slices.Contains(names, want) {
			t.Errorf("no %q among %q", want, names)
		}
	}
	for _, n := range names {
		if slices.Contains([]string{"object lib.emitter.<object>", "method lib.emitter.<object>.value"}, n) {
			t.Errorf("%q is a symbol: %q", n, names)
		}
	}
	// Object.defineProperty's third argument is a descriptor, not the
	// field's value.
	if slices.Contains(names, "function lib.emitter.Emitter.size") {
		t.Errorf("Object.defineProperty's getter named as the field: %q", names)
	}
	var caller string
	for _, c := range f.Calls {
		if c.Name == "on" && c.Receiver == "this" {
			caller = c.Caller
		}
	}
	if caller != "lib.emitter.Emitter.emit" {
		t.Errorf("this.on() is called by %q, want lib.emitter.Emitter.emit", caller)
	}
}

func FuzzJavaScriptBabelClasses(f *testing.F) {
	f.Add(babelEmitter)
	f.Add(`_createClass(A, [{key: "m", value: function () {}}, {key: 1, get: () => 2}], [{}]);`)
	f.Add(`(0, _createClass2.default)(A, [{key: "", value: function () {}}]); _defineProperty(this, "x y", () => 1);`)
	ex, err := New(f.TempDir(), Options{KeepMinified: true})
	if err != nil {
		f.Fatal(err)
	}
	defer ex.Close()
	f.Fuzz(func(t *testing.T, src string) {
		file, err := ex.Source(context.Background(), "lib/fuzz.js", []byte(src))
		if err != nil {
			t.Skip(err) // binary, too large: refused as any file is
		}
		for _, s := range file.Symbols {
			if s.Name == "" || s.Qualified == "" {
				t.Fatalf("a symbol without a name: %+v", s)
			}
		}
	})
}
