package deps

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"
)

// A lockfile is data written by whoever wrote the project, so every path
// and name in it is checked before it is used as a path: a name that is
// not one is refused, and a directory is resolved, symbolic links and
// all, and must lie inside the place it comes from.

// outsideError is a path that resolves outside the place it must lie in.
type outsideError struct {
	path, real, base string
}

func (e *outsideError) Error() string {
	if e.real == e.path {
		return fmt.Sprintf("%s is outside %s", e.path, e.base)
	}
	return fmt.Sprintf("%s resolves to %s, outside %s", e.path, e.real, e.base)
}

// confine returns p with every symbolic link resolved, when it lies inside
// base (resolved too) or is base. It fails with an *outsideError when it
// does not, and with the error of filepath.EvalSymlinks when p or base
// cannot be resolved (fs.ErrNotExist for one that is not there).
func confine(base, p string) (string, error) {
	rb, err := filepath.EvalSymlinks(base)
	if err != nil {
		return "", err
	}
	rp, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", err
	}
	if rel, err := filepath.Rel(rb, rp); err != nil || !filepath.IsLocal(rel) {
		return "", &outsideError{path: p, real: rp, base: rb}
	}
	return rp, nil
}

// place resolves dir inside base, as confine does, and sets d from the
// answer: Present with dir's real path, Missing when it is not there, or
// Refused with the reason when it leads outside base. It reports whether
// d is Present.
func place(d *Dep, base, dir, what string) bool {
	real, err := confine(base, dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		d.Status, d.Dir = Missing, ""
		return false
	case err != nil: // outside (an *outsideError), a link loop, unreadable
		refuse(d, fmt.Sprintf("%s: %v", what, err))
		return false
	}
	d.Status, d.Dir = Present, real
	return true
}

// refuse marks d Refused for reason: nothing of it is read.
func refuse(d *Dep, reason string) {
	d.Status, d.Reason, d.Dir, d.Fetch, d.Found, d.Roots = Refused, reason, "", "", "", nil
}

// maxText bounds a name or version from a lockfile.
const maxText = 512

// badText says what is wrong with s as a name, version or path from a
// lockfile: empty, over maxText bytes, or holding a control character
// (NUL among them), a backslash or invalid UTF-8. "" when nothing is.
func badText(s string) string {
	switch {
	case s == "":
		return "empty"
	case len(s) > maxText:
		return fmt.Sprintf("%d bytes long", len(s))
	case strings.ContainsRune(s, '\\'):
		return "holds a backslash"
	case strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) || r == unicode.ReplacementChar }):
		return "holds a control character or invalid UTF-8"
	}
	return ""
}

// badElems says what is wrong with a slash path from a lockfile: bad
// text, or an empty, "." or ".." element. "" when nothing is.
func badElems(p string) string {
	if bad := badText(p); bad != "" {
		return bad
	}
	for _, el := range strings.Split(p, "/") {
		switch el {
		case "", ".", "..":
			return fmt.Sprintf("has a path element %q", el)
		}
	}
	return ""
}

// npmName checks an npm package name: "name" or "@scope/name", neither
// part empty, "." or "..", nor starting with a dot.
func npmName(name string) error {
	bad := badElems(name)
	if bad == "" {
		scope, rest, scoped := strings.Cut(name, "/")
		switch {
		case scoped && (!strings.HasPrefix(scope, "@") || len(scope) < 2 || strings.Contains(rest, "/")):
			bad = "is not name or @scope/name"
		case !scoped && strings.HasPrefix(name, "@"):
			bad = "is a scope without a name"
		case strings.HasPrefix(name, "."):
			bad = "starts with a dot"
		}
	}
	if bad != "" {
		return fmt.Errorf("package name %q %s", name, bad)
	}
	return nil
}

// checkVersion checks a version from a lockfile: text without a slash,
// not "." or "..".
func checkVersion(v string) error {
	bad := badText(v)
	switch {
	case bad != "":
	case strings.Contains(v, "/"):
		bad = "holds a slash"
	case v == "." || v == "..":
		bad = "is a path element"
	}
	if bad != "" {
		return fmt.Errorf("version %q %s", v, bad)
	}
	return nil
}

var (
	// cargoName is a crate name as crates.io allows one.
	cargoName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	// cargoVersion is a semantic version's alphabet.
	cargoVersion = regexp.MustCompile(`^[0-9A-Za-z.+-]{1,128}$`)
	// pythonName is a distribution name (PEP 508).
	pythonName = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9._-]{0,200}[A-Za-z0-9])?$`)
	// pythonVersion is a version's alphabet (PEP 440, local versions too).
	pythonVersion = regexp.MustCompile(`^[A-Za-z0-9.+!_-]{1,128}$`)
)

// checkName checks a name and version from one of Cargo's or Python's
// lockfiles against the ecosystem's alphabet.
func checkName(name, version string, nameRE, versionRE *regexp.Regexp) error {
	if !nameRE.MatchString(name) {
		return fmt.Errorf("package name %q is not one", name)
	}
	if !versionRE.MatchString(version) {
		return fmt.Errorf("version %q is not one", version)
	}
	return nil
}
