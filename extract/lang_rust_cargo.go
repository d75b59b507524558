package extract

import (
	"path"
	"strings"

	"github.com/BurntSushi/toml"
)

// rustCrate returns the name of the crate whose Cargo.toml is in slash
// dir (relative to the root), as Rust code names it: the [lib] name, else
// the [package] name with '-' as '_' (grep-searcher is grep_searcher).
// It is "" when dir holds no Cargo.toml, or one without a package (a
// workspace's root manifest) or one that does not parse.
func (p *project) rustCrate(dir string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if name, ok := p.cargo[dir]; ok {
		return name
	}
	if p.cargo == nil {
		p.cargo = map[string]string{}
	}
	name := readCrateName(p, path.Join(dir, "Cargo.toml"))
	p.cargo[dir] = name
	return name
}

// readCrateName reads the crate name from the manifest at slash path file.
func readCrateName(p *project, file string) string {
	data, err := readSide(p.dir, file)
	if err != nil {
		return ""
	}
	var m struct {
		Package struct{ Name string }
		Lib     struct{ Name string }
	}
	if _, err := toml.Decode(string(data), &m); err != nil {
		return ""
	}
	name := m.Lib.Name
	if name == "" {
		name = strings.ReplaceAll(m.Package.Name, "-", "_")
	}
	if !isRustIdent(name) {
		return ""
	}
	return name
}

// isRustIdent reports whether s is a plain identifier.
func isRustIdent(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '_' && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
