//go:build race

package extract

// raceOn: the tests run under the race detector, which allocates on its own.
const raceOn = true
