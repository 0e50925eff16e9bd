//go:build race

package pipeline

// raceEnabled: built with the race detector (see stream.touch).
const raceEnabled = true
