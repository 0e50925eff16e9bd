package pipeline

import (
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/singer"
)

// frontierPoints and frontier look at the same messages (coalesce relies
// on it): the least point is the frontier, whenever one is.
func TestFrontierPointsHoldTheFrontier(t *testing.T) {
	for seed := range uint64(30) {
		settings, lines := pendScenario(seed)
		drive(t, settings, strings.Join(lines, "\n")+"\n", func(p *pipeline, m *singer.Message) {
			least := noLine
			for _, x := range p.frontierPoints() {
				least = min(least, x)
			}
			if f := p.frontier(); least != f {
				t.Fatalf("seed %d, line %v: least frontier point %d, frontier %d", seed, lineOf(m), least, f)
			}
		})
	}
}
