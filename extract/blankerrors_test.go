package extract

import (
	"bytes"
	"testing"
)

// TestKotlinErrorKeepsClass: a statement the grammar cannot read (an
// assignment through a cast) no longer ends its class: the methods after
// it stay the class's, and its calls the method's. A `fun interface`
// is an interface with its member.
func TestKotlinErrorKeepsClass(t *testing.T) {
	f := extractString(t, "app/ScreenStackFragment.kt", `package app

class ScreenStackFragment : ScreenFragment {
    override fun setToolbarTranslucent(translucent: Boolean) {
        if (isToolbarTranslucent != translucent) {
            val params = screen.layoutParams
            (params as CoordinatorLayout.LayoutParams).behavior =
                if (translucent) null else ScrollingViewBehavior()
            isToolbarTranslucent = translucent
            applyInsets()
        }
    }

    override fun dismiss() {
        container.dismiss(this)
    }

    fun interface ProgressListener {
        fun update(bytesRead: Long)
    }
}
`)
	got := map[string]bool{}
	for _, s := range f.Symbols {
		got[s.Qualified] = true
	}
	for _, want := range []string{"app.ScreenStackFragment.dismiss", "app.ScreenStackFragment.ProgressListener", "app.ScreenStackFragment.ProgressListener.update"} {
		if !got[want] {
			t.Errorf("no symbol %s; have %v", want, got)
		}
	}
	if got["app.dismiss"] {
		t.Error("dismiss read as a top-level function")
	}
	calls := map[string]string{}
	for _, c := range f.Calls {
		calls[c.Name] = c.Caller
	}
	if calls["applyInsets"] != "app.ScreenStackFragment.setToolbarTranslucent" {
		t.Errorf("applyInsets called by %q", calls["applyInsets"])
	}
}

// TestBlankErrorLines: only the lines of errors are blanked, their
// braces and line breaks kept; a file without errors has no other
// reading.
func TestBlankErrorLines(t *testing.T) {
	src := []byte("class A {\n    fun b() {\n        val p = x\n        (p as B).c =\n            d()\n    }\n}\n")
	tree := parseWith(t, "a.kt", string(src))
	defer tree.Close()
	alt := blankErrorLines(src, tree.RootNode())
	if len(alt) != len(src) || bytes.Count(alt, []byte("\n")) != bytes.Count(src, []byte("\n")) {
		t.Fatalf("other reading %q changes the length or the lines", alt)
	}
	if !bytes.HasPrefix(alt, []byte("class A {\n    fun b() {\n        val p = x\n")) || !bytes.HasSuffix(alt, []byte("d()\n    }\n}\n")) || bytes.Contains(alt, []byte("as B")) {
		t.Errorf("other reading %q", alt)
	}
	ok := []byte("class A {\n    fun b() {}\n}\n")
	clean := parseWith(t, "a.kt", string(ok))
	defer clean.Close()
	if alt := blankErrorLines(ok, clean.RootNode()); alt != nil {
		t.Errorf("a file without errors read otherwise: %q", alt)
	}
}

// FuzzKotlinFunInterfaces: the other reading keeps the length and every
// byte but the blanked `fun`s.
func FuzzKotlinFunInterfaces(f *testing.F) {
	for _, s := range []string{"fun interface A { fun b() }", "funinterface", "fun  interfaceX", "x fun\tinterface", "fun", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		alt := kotlinFunInterfaces(src)
		if alt == nil {
			return
		}
		if len(alt) != len(src) {
			t.Fatalf("length %d, want %d", len(alt), len(src))
		}
		for i := range src {
			if alt[i] != src[i] && (alt[i] != ' ' || !bytes.Contains([]byte("fun"), src[i:i+1])) {
				t.Fatalf("byte %d changed from %q to %q", i, src[i], alt[i])
			}
		}
	})
}

// TestKotlinLocalErrorKeepsCalls: an error within a statement, which
// leaves the structure around it as written, is not recovered from: the
// line's calls stay.
func TestKotlinLocalErrorKeepsCalls(t *testing.T) {
	f := extractString(t, "app/Traits.kt", `package app

object Traits {
    fun setColor(animated: Boolean) {
        if (animated) {
            colorAnimation.setDuration(300).startDelay = 0
        } else {
            colorAnimation.setDuration(0).startDelay = 300
        }
        colorAnimation.start()
    }
}
`)
	if len(f.Errors) == 0 {
		t.Fatal("the grammar reads this file now: the case needs another construct it lacks")
	}
	n := 0
	for _, c := range f.Calls {
		if c.Name == "setDuration" && c.Caller == "app.Traits.setColor" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d calls of setDuration in app.Traits.setColor, want 2; calls %v", n, f.Calls)
	}
}
