// Package deps finds a project's dependencies at the exact versions its
// lockfiles name, and where their source already lies on this machine.
//
// In goes a project root; out come plain Dep values, one per dependency
// version, sorted by ecosystem, name and version. Four ecosystems are read:
//
//   - go: go.mod (versions, direct or // indirect) and go.sum, with the
//     source in the module cache ($GOMODCACHE, `go env GOMODCACHE`, or
//     $GOPATH/pkg/mod);
//   - npm: package-lock.json, pnpm-lock.yaml or yarn.lock, with the source
//     in node_modules (a package.json without a lockfile is read too);
//   - python: a virtualenv's site-packages (.venv, venv or $VIRTUAL_ENV),
//     each distribution's version from its *.dist-info/METADATA, matched
//     against uv.lock, poetry.lock or pinned requirements when present;
//   - cargo: Cargo.lock, with the source in Cargo's registry
//     ($CARGO_HOME/registry/src).
//
// A dependency that is locked but not on disk is reported Missing, with the
// command that would fetch it; this package never downloads, never runs a
// package manager and never writes.
//
// A lockfile is data: its paths and names are checked, never followed as
// given. A dependency whose directory resolves (links and all) outside the
// place it must come from, or whose name or version is not one, is
// reported Refused with the reason, and nothing of it is read.
package deps
