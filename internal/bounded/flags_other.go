//go:build !unix

package bounded

const (
	oNonblock = 0
	oNofollow = 0
)
