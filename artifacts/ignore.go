package artifacts

import (
	"errors"
	"fmt"
	"io/fs"
)

// Gitignore is what WriteGitignore puts in .artifacts/.gitignore: the
// enriched markdown is documentation a team shares through git, while the
// search index is rebuilt from the files and stays local, as do the
// temporary files of writes under way.
const Gitignore = `# Written by fileinfo. Commit the markdown here: it documents the source
# files, and a team shares it through git. The search index is rebuilt
# from the files on each machine.
.index/
` + tempPrefix + `*` + tempSuffix + `
`

// WriteGitignore writes .artifacts/.gitignore (see Gitignore), creating
// the artifact directory if need be, unless a .gitignore is there already:
// one the user edited is kept as it is. Write calls it, and so should
// anything else that creates the artifact directory, such as the search
// index.
func (s *Store) WriteGitignore() error {
	r, err := s.openRoot(true)
	if err != nil {
		return fmt.Errorf("artifacts: write .gitignore: %w", err)
	}
	defer r.Close()
	if _, err := r.Lstat(".gitignore"); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	tmp, f, err := createTemp(r, ".")
	if err != nil {
		return fmt.Errorf("artifacts: write .gitignore: %w", err)
	}
	_, err = f.WriteString(Gitignore)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = r.Rename(tmp, ".gitignore")
	}
	if err != nil {
		r.Remove(tmp)
		return fmt.Errorf("artifacts: write .gitignore: %w", err)
	}
	return nil
}
