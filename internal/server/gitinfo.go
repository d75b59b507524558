package server

import (
	"bufio"
	"bytes"
	"path/filepath"
	"strings"

	"github.com/fileinfo/fileinfo/internal/bounded"
)

// gitHead returns the commit checked out in the repository at root, read
// from .git without running git, or "" when root is not a repository's
// top or the commit cannot be found. It follows a worktree's "gitdir:"
// file and its commondir, and looks in packed-refs for packed branches.
// It reads only regular files of at most bounded.Git bytes, never
// through a final symbolic link (see readGitFile), so a FIFO or a link to
// /dev/zero under .git costs nothing, and shows nothing but a commit hash
// of what it read.
func gitHead(root string) string {
	gitDir := filepath.Join(root, ".git")
	if data, err := readGitFile(gitDir); err == nil { // a worktree or submodule
		dir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
		if !ok {
			return ""
		}
		gitDir = strings.TrimSpace(dir)
		if !filepath.IsAbs(gitDir) {
			gitDir = filepath.Join(root, gitDir)
		}
	}
	head, err := readGitFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return ""
	}
	ref, symbolic := strings.CutPrefix(strings.TrimSpace(string(head)), "ref:")
	if !symbolic {
		return validSHA(ref)
	}
	ref = strings.TrimSpace(ref)
	common := gitDir
	if data, err := readGitFile(filepath.Join(gitDir, "commondir")); err == nil {
		common = strings.TrimSpace(string(data))
		if !filepath.IsAbs(common) {
			common = filepath.Join(gitDir, common)
		}
	}
	for _, dir := range []string{gitDir, common} {
		if data, err := readGitFile(filepath.Join(dir, filepath.FromSlash(ref))); err == nil {
			return validSHA(strings.TrimSpace(string(data)))
		}
	}
	packed, err := readGitFile(filepath.Join(common, "packed-refs"))
	if err != nil {
		return ""
	}
	sc := bufio.NewScanner(bytes.NewReader(packed))
	for sc.Scan() {
		sha, name, ok := strings.Cut(sc.Text(), " ")
		if ok && name == ref {
			return validSHA(sha)
		}
	}
	return ""
}

// validSHA returns s if it is a hex object name, else "".
func validSHA(s string) string {
	if len(s) != 40 && len(s) != 64 {
		return ""
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return ""
		}
	}
	return s
}

// readGitFile reads the file at path under .git through bounded.ReadFile:
// a regular file, not a symbolic link, of at most bounded.Git bytes (the
// largest is packed-refs: 9 MB for the Linux kernel's full history).
func readGitFile(path string) ([]byte, error) {
	return bounded.ReadFile(path, bounded.Git)
}
