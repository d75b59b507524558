//go:build !unix

package server

const oNonblock = 0
