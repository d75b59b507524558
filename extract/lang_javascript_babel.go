package extract

// Classes as Babel compiles them for ES5. A class's methods become
// descriptors in arrays handed to the createClass helper, after the
// constructor function of the class's name:
//
//	var Emitter = /*#__PURE__*/function () {
//	  function Emitter() { _classCallCheck(this, Emitter); }
//	  _createClass(Emitter, [{
//	    key: "on",
//	    value: function on(name, fn) { … }
//	  }], [{ key: "create", value: function create() { … } }]);
//	  return Emitter;
//	}();
//
// (with @babel/runtime, `(0, _createClass2.default)(Emitter, […])`).
// Read as written, every method was a member `value` of an anonymous
// object: emitter.<object>.value, for a search and for a call graph in
// which `this.on()` found nothing. The descriptor's function is the
// method Emitter.on, prototype and static alike, and the descriptor
// object is no symbol. A class field holding a function, which Babel
// assigns in the constructor through its defineProperty helper
// (`_defineProperty(_assertThisInitialized(_this), "onDotsOver",
// function () {…})`), is named by its field: react-slick's InnerSlider
// has 36 such handlers, all "<callback of _defineProperty>" before.

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// babelMember returns, for the pair of a Babel class descriptor that
// holds a method (`value: function on() {…}`, or an accessor's `get:` or
// `set:`), the class's name and the method's; ok is false for any other
// pair.
func babelMember(pair *sitter.Node, f *fileInfo) (class, method string, ok bool) {
	k, v := pair.ChildByFieldName("key"), pair.ChildByFieldName("value")
	if k == nil || v == nil {
		return "", "", false
	}
	switch f.text(k) {
	case "value", "get", "set":
	default:
		return "", "", false
	}
	switch v.Type() {
	case "function_expression", "function", "arrow_function", "generator_function":
	default:
		return "", "", false
	}
	obj := pair.Parent()
	if obj == nil || obj.Type() != "object" {
		return "", "", false
	}
	class, ok = babelClassOf(obj, f)
	if !ok {
		return "", "", false
	}
	method, ok = babelKey(obj, f)
	return class, method, ok
}

// babelDescriptor reports whether object literal obj is a Babel class
// descriptor: `{key: "on", value: function () {…}}` in an array passed
// to the createClass helper.
func babelDescriptor(obj *sitter.Node, f *fileInfo) bool {
	if _, ok := babelClassOf(obj, f); !ok {
		return false
	}
	_, ok := babelKey(obj, f)
	return ok
}

// babelKey returns the string of descriptor obj's `key`.
func babelKey(obj *sitter.Node, f *fileInfo) (string, bool) {
	for i, n := 0, int(obj.NamedChildCount()); i < n; i++ {
		c := obj.NamedChild(i)
		if c.Type() != "pair" {
			continue
		}
		k, v := c.ChildByFieldName("key"), c.ChildByFieldName("value")
		if k != nil && v != nil && f.text(k) == "key" && v.Type() == "string" {
			name := unquoteJS(f.text(v))
			return name, name != ""
		}
	}
	return "", false
}

// babelClassOf returns the class whose descriptor array holds obj: the
// first argument, a name, of a createClass helper's call whose second
// or third argument is that array.
func babelClassOf(obj *sitter.Node, f *fileInfo) (string, bool) {
	arr := obj.Parent()
	if arr == nil || arr.Type() != "array" {
		return "", false
	}
	args := arr.Parent()
	if args == nil || args.Type() != "arguments" || args.NamedChildCount() < 2 {
		return "", false
	}
	call := args.Parent()
	if call == nil || call.Type() != "call_expression" {
		return "", false
	}
	callee := call.ChildByFieldName("function")
	if callee == nil || callee.EndByte()-callee.StartByte() > 60 || !strings.Contains(f.text(callee), "createClass") {
		return "", false
	}
	if a1, a2 := args.NamedChild(1), args.NamedChild(int(min(args.NamedChildCount(), 3))-1); !a1.Equal(arr) && !a2.Equal(arr) {
		return "", false
	}
	cls := args.NamedChild(0)
	if cls.Type() != "identifier" {
		return "", false
	}
	return f.text(cls), true
}

// babelField returns the name of the class field that Babel's
// defineProperty helper gives the function fn, the last of args: the
// string literal before it, when the helper is called with three
// arguments (not Object.defineProperty, whose third is a descriptor).
func babelField(args, fn *sitter.Node, f *fileInfo) (string, bool) {
	call := args.Parent()
	if call == nil || call.Type() != "call_expression" || args.NamedChildCount() != 3 || !args.NamedChild(2).Equal(fn) {
		return "", false
	}
	callee := call.ChildByFieldName("function")
	if callee == nil || callee.EndByte()-callee.StartByte() > 60 {
		return "", false
	}
	if c := f.text(callee); !strings.Contains(c, "defineProperty") || strings.HasPrefix(c, "Object.") || strings.HasPrefix(c, "Reflect.") {
		return "", false
	}
	key := args.NamedChild(1)
	if key.Type() != "string" {
		return "", false
	}
	name := unquoteJS(f.text(key))
	return name, name != "" && !strings.ContainsAny(name, " .<>")
}
