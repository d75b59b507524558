//go:build !unix

package dirstamp

import "io/fs"

// Inode returns 0: this system's lstat gives no inode number; a file
// replaced under the same name with the same size and time is not seen.
func Inode(fs.FileInfo) uint64 { return 0 }
