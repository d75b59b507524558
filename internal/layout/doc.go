// Package layout holds no code: its test keeps the import graph of
// fileinfo one-way, as ../shared/STYLE.md draws it.
package layout
