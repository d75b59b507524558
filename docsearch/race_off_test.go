//go:build !race

package docsearch

// raceOn: the tests run under the race detector (see race_on_test.go).
const raceOn = false
