// Package docsearch indexes the documentation of a workspace and searches it.
package docsearch
