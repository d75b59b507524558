package extract

import (
	"encoding/json"
	"testing"
	"unsafe"
)

// A Call's CallValues are optional: its methods read a nil one as empty,
// and its JSON is what Call had when Args was its own field ("args"
// after "column", omitted when empty), both ways.
func TestCallValues(t *testing.T) {
	for _, tc := range []struct {
		name string
		call Call
		want string
	}{
		{"none", Call{Caller: "m", Name: "f", Line: 1, Column: 2},
			`{"caller":"m","name":"f","receiver":"","line":1,"column":2}`},
		{"no args", Call{Caller: "m", Name: "f", Line: 1, Column: 2, CallValues: &CallValues{}},
			`{"caller":"m","name":"f","receiver":"","line":1,"column":2}`},
		{"args", Call{Caller: "m", Name: "f", Receiver: "o", Line: 3, Column: 4, CallValues: &CallValues{Args: []string{"1", "x=2"}}},
			`{"caller":"m","name":"f","receiver":"o","line":3,"column":4,"args":["1","x=2"]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := json.Marshal(tc.call)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("json:\n got %s\nwant %s", got, tc.want)
			}
			var back Call
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatal(err)
			}
			if len(back.Args()) != len(tc.call.Args()) || back.Name != tc.call.Name || back.Line != tc.call.Line {
				t.Errorf("round trip: %+v, want %+v", back, tc.call)
			}
			if tc.call.CallValues == nil && (tc.call.Args() != nil || tc.call.ReceiverExpr().Valid() || tc.call.ArgExprs().Valid()) {
				t.Errorf("a nil CallValues reads as not empty")
			}
		})
	}
}

// Languages whose queries capture no arguments pay nothing for them.
func TestCallValuesOnlyWhereCaptured(t *testing.T) {
	for _, tc := range []struct {
		path, src string
		values    bool
	}{
		{"a.c", "void f(void) { g(1, 2); h(); }\n", false},
		{"a.go", "package p\nfunc f() { g(1, 2) }\n", false},
		{"a.py", "def f():\n    g(1, x=2)\n", true},
	} {
		f := extractString(t, tc.path, tc.src)
		if len(f.Calls) == 0 {
			t.Fatalf("%s: no calls", tc.path)
		}
		for _, c := range f.Calls {
			if got := c.CallValues != nil; got != tc.values {
				t.Errorf("%s: call %s has CallValues %v, want %v", tc.path, c.Name, got, tc.values)
			}
		}
	}
}

// The calls of a file share one string per called name and receiver.
func TestCallNamesInterned(t *testing.T) {
	f := extractString(t, "a.c", "void f(void) { lock(m); unlock(m); }\nvoid g(void) { lock(m); dev->ops(); dev->ops(); }\n")
	byName := map[string]Call{}
	for _, c := range f.Calls {
		if prev, ok := byName[c.Name]; ok {
			if unsafe.StringData(prev.Name) != unsafe.StringData(c.Name) {
				t.Errorf("two copies of call name %q", c.Name)
			}
			if c.Receiver != "" && unsafe.StringData(prev.Receiver) != unsafe.StringData(c.Receiver) {
				t.Errorf("two copies of receiver %q", c.Receiver)
			}
		}
		byName[c.Name] = c
	}
	if len(byName) != 3 {
		t.Errorf("calls %+v; want lock, unlock, ops", f.Calls)
	}
}
