//go:build race

package docsearch

// raceOn: the tests run under the race detector, whose sync.Pool drops
// some of what is put in it, so a pooled value is made again.
const raceOn = true
