package main

import (
	"slices"
	"strings"
	"testing"
)

const howtoDoc = `:tocdepth: 2

=========================
Library and Extension FAQ
=========================

.. _faq-copy:

How do I copy a file?
---------------------

The :mod:` + "`shutil`" + ` module has a copyfile function::

   import shutil
   shutil.copyfile(src, dst)

Reading CSV files
~~~~~~~~~~~~~~~~~

.. code-block:: python
   :linenos:

   import csv
   with open(path) as f:
       rows = list(csv.reader(f))

.. code-block:: sh

   $ python -m csv
   cat file.csv

Sorting Basics
==============

   >>> sorted([5, 2, 3])
   [2, 3, 5]
   >>> a = {1: 'D',
   ...      2: 'B'}

C code
======

An example::

   static int x = 1;
   PyObject *o = NULL;

.. ipython:: python

   df = pd.read_csv("foo.csv")
   df.head()

Shell only
==========

::

   $ pip install foo
`

func TestRSTSections(t *testing.T) {
	got, intros := rstSections(howtoDoc)
	want := []section{
		{"How do I copy a file?", "import shutil\nshutil.copyfile(src, dst)"},
		{"Reading CSV files", "import csv\nwith open(path) as f:\n    rows = list(csv.reader(f))"},
		{"Sorting Basics", "sorted([5, 2, 3])\na = {1: 'D',\n     2: 'B'}"},
		{"C code", "df = pd.read_csv(\"foo.csv\")\ndf.head()"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("rstSections:\n got %q\nwant %q", got, want)
	}
	wantIntros := []section{{"The shutil module has a copyfile function", "import shutil\nshutil.copyfile(src, dst)"}}
	if !slices.Equal(intros, wantIntros) {
		t.Errorf("rstSections' intros:\n got %q\nwant %q", intros, wantIntros)
	}
}

func TestPlainTitle(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Using :func:`~pandas.concat` to join", "Using pandas.concat to join"},
		{"Why doesn't ``list.sort()`` return the sorted list?", "Why doesn't list.sort() return the sorted list?"},
		{"2.3. Reading `files <https://x.org>`_", "Reading files"},
	} {
		if got := plainTitle(c.in); got != c.want {
			t.Errorf("plainTitle(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestIntroSentence(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Files are easy. To copy a file, use :func:`shutil.copyfile`:", "To copy a file, use shutil.copyfile"},
		{"For example:", ""},
		{"", ""},
	} {
		if got := introSentence(c.in); got != c.want {
			t.Errorf("introSentence(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestTaskHeading(t *testing.T) {
	verbs := map[string]bool{"read": true, "copy": true, "create": true, "get": true, "sort": true}
	for _, c := range []struct {
		heading string
		want    bool
	}{
		{"How do I copy a file?", true},
		{"Is there a curses package for Python?", true},
		{"How to use the logging module", true},
		{"Copy a file", true},
		{"Reading CSV files", true},
		{"Creating a Dataset", true},
		{"Getting started", true},
		{"Sorting Basics", true},
		{"String methods", false},
		{"Library Reference", false},
		{"Copy", false}, // one word says no task
		{"os — Miscellaneous operating system interfaces", false},
	} {
		if got := taskHeading(c.heading, verbs); got != c.want {
			t.Errorf("taskHeading(%q) = %v, want %v", c.heading, got, c.want)
		}
	}
}

func TestDocVerbs(t *testing.T) {
	var pairs []pair
	add := func(first string, n int) {
		for range n {
			pairs = append(pairs, pair{query: first + " the thing."})
		}
	}
	add("Return", 5)
	add("Returns", 5)
	add("Match", 5)
	add("Matches", 5)
	add("The", 9)
	add("A", 5)
	add("As", 5)
	add("Sort", 5)
	add("Sorts", 4) // too few
	got := docVerbs(pairs, 5)
	var words []string
	for w := range got {
		words = append(words, w)
	}
	slices.Sort(words)
	if want := []string{"match", "return"}; !slices.Equal(words, want) {
		t.Errorf("docVerbs = %v, want %v", words, want)
	}
}

func TestDocSections(t *testing.T) {
	c := debDocs("python-x-doc", "1", "sha256-", "MIT")
	files := map[string][]byte{
		"usr/share/doc/x/html/_sources/faq.rst.txt":           []byte(howtoDoc),
		"usr/share/doc/x/html/_sources/whatsnew/3.11.rst.txt": []byte(howtoDoc),
		"usr/share/doc/x/html/faq.html":                       []byte(howtoDoc),
	}
	ps := docSections(c, files)
	if len(ps) != 5 || ps[0].name != "faq.rst.txt" || ps[4].rest != introMark {
		t.Fatalf("docSections: %d pairs, first %+v; want the 4 sections and 1 intro of faq.rst.txt alone", len(ps), ps[0])
	}
	hs := howtoPairs(ps, map[string]bool{"read": true}, false)
	var qs []string
	for _, p := range hs {
		qs = append(qs, p.query)
	}
	if want := "How do I copy a file?|Reading CSV files"; strings.Join(qs, "|") != want {
		t.Errorf("howtoPairs: %q, want %q", qs, want)
	}
	if all := howtoPairs(ps, nil, false); len(all) != 4 {
		t.Errorf("howtoPairs(nil verbs): %d pairs, want all 4 sections", len(all))
	}
	if all := howtoPairs(ps, nil, true); len(all) != 5 {
		t.Errorf("howtoPairs(nil verbs, intros): %d pairs, want all 5", len(all))
	}
}

// TestGatherHowto checks -howto's wiring: the documentation pairs come
// after the code pairs, filtered by the code pairs' verbs, intros only
// with -howto-intro, repeated by -howto-times. The corpora are read from
// a pair cache, so nothing is fetched.
func TestGatherHowto(t *testing.T) {
	dir := t.TempDir()
	find := func(list []corpus, name string) corpus {
		t.Helper()
		for _, c := range list {
			if c.name() == name {
				return c
			}
		}
		t.Fatalf("%s not listed", name)
		return corpus{}
	}
	code, doc := find(debCorpora, "python3-boltons"), find(debDocCorpora, "python3.11-doc")
	var ps []pair
	for range 5 {
		ps = append(ps, pair{query: "Return the list.", code: "def f(): pass"}, pair{query: "Returns the list.", code: "def g(): pass"})
	}
	secs := []pair{
		{query: "Returning early", code: "return x"},
		{query: "Library Reference", code: "import os"},
		{query: "To stop, return a value", code: "return 1", rest: introMark},
	}
	if err := writePairCache(dir, code, ps); err != nil {
		t.Fatal(err)
	}
	if err := writePairCache(dir, doc, secs); err != nil {
		t.Fatal(err)
	}
	only := "python3-boltons,python3.11-doc"
	for _, c := range []struct {
		name              string
		howto, all, intro bool
		times             int
		want              []string // the queries after the code pairs'
	}{
		{"no howto", false, false, false, 1, nil},
		{"task-like", true, false, false, 1, []string{"Returning early"}},
		{"all", true, true, false, 1, []string{"Returning early", "Library Reference"}},
		{"intro", true, false, true, 1, []string{"Returning early", "To stop, return a value"}},
		{"twice", true, false, false, 2, []string{"Returning early", "Returning early"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, used, err := gatherPairs("", only, dir, nil, c.howto, c.all, c.intro, c.times)
			if err != nil {
				t.Fatal(err)
			}
			var qs []string
			for _, p := range got[len(ps):] {
				qs = append(qs, p.query)
			}
			if !slices.Equal(qs, c.want) {
				t.Errorf("documentation pairs %q, want %q", qs, c.want)
			}
			if wantUsed := 1 + map[bool]int{true: 1}[c.howto]; len(used) != wantUsed {
				t.Errorf("%d corpora used, want %d", len(used), wantUsed)
			}
		})
	}
}
