package sim

import (
	"sort"
	"strings"
)

// Classify names the likely cause of a failing trial from its failures and
// its scenario, so a run over many seeds can be read by cause. It is a
// reading aid for reports, never part of a check.
func Classify(r *Result) string {
	sc := r.Scenario
	var tags []string
	add := func(t string) {
		for _, x := range tags {
			if x == t {
				return
			}
		}
		tags = append(tags, t)
	}
	appendHard := false
	for _, st := range sc.Streams {
		if st.Method == Append && st.Hard && !st.Keyless {
			appendHard = true
		}
	}
	for _, f := range r.Failures {
		switch {
		case strings.Contains(f, "held to the end"):
			add("reset-stream-state-before-end")
		case strings.Contains(f, "read after message"):
			add("state-after-failed-message")
		case strings.Contains(f, "should have failed"):
			add("failure-not-reported")
		case strings.HasPrefix(f, "final:") && (sc.Truncate || hasOverwrite(sc)):
			add("final-reset-stream")
		case strings.HasPrefix(f, "final:") && appendHard:
			add("final-append-hard-delete")
		case strings.HasPrefix(f, "final:"):
			add("final-other")
		case strings.Contains(f, ", state ") && (strings.Contains(f, "is missing") || strings.Contains(f, "not what the input")):
			if appendHard && strings.Contains(f, "row q=") {
				add("state-check-append-hard-delete")
			} else {
				add("state-ahead-of-data")
			}
		default:
			add("other")
		}
	}
	sort.Strings(tags)
	return strings.Join(tags, ",")
}

func hasOverwrite(sc *Scenario) bool {
	for _, st := range sc.Streams {
		if st.Method == Overwrite {
			return true
		}
	}
	return false
}
