// Package bounded is the one way fileinfo's wiring reads a file it did
// not just write: a state file under .artifacts/.index, a lockfile or
// manifest, a dependency's README or cache entry, a git ref.
//
// In goes a path (or a name under an os.Root) and a Limit; out come the
// bytes of a regular file of at most Limit.Max bytes, or a *SkipError
// saying why not. The final path element is opened without following a
// symbolic link and without waiting (a FIFO is refused at once, not read);
// what was opened is checked with fstat, so a device, a directory or a
// file swapped in after a listing is refused too; and no more than
// Limit.Max bytes are read even from a file that grows meanwhile.
//
// The library packages (extract, docsearch, artifacts) stand alone and
// keep readers of their own with the same rules (extract.ReadRegular,
// docsearch's readFile, artifacts' openRegular); this package uses the
// standard library only, so any internal package may use it.
package bounded
