package server

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// gitHead returns the commit checked out in the repository at root, read
// from .git without running git, or "" when root is not a repository's
// top or the commit cannot be found. It follows a worktree's "gitdir:"
// file and its commondir, and looks in packed-refs for packed branches.
// It reads only regular files of at most maxGitFile bytes, so a FIFO or a
// link to /dev/zero under .git costs nothing, and shows nothing but a
// commit hash of what it read.
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

// maxGitFile bounds what gitHead reads of one file (packed-refs is the
// largest: 9 MB for the Linux kernel's full history).
const maxGitFile = 64 << 20

// readGitFile reads the regular file at path, without blocking on a FIFO
// and at most maxGitFile bytes.
func readGitFile(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() || st.Size() > maxGitFile {
		return nil, fmt.Errorf("%s: not a regular file of at most %d bytes", path, maxGitFile)
	}
	return io.ReadAll(io.LimitReader(f, maxGitFile))
}
