package connect

import (
	"strings"

	"github.com/target-oracle/target-oracle/internal/config"
)

// optionItems state what partitioning and compression need (SPEC §3):
// both are licensed options that --check cannot see, so it says which
// and, where the edition rules an option out, that CREATE TABLE will fail.
func (r *Report) optionItems(cfg *config.Config) {
	partitioned, compressions := !cfg.Partitioning.None(), map[string]bool{}
	if cfg.Compression != "" && cfg.Compression != config.CompressionNone {
		compressions[cfg.Compression] = true
	}
	for _, o := range cfg.StreamOverrides {
		if o.Partitioning != nil && !o.Partitioning.None() {
			partitioned = true
		}
		if o.Compression != nil && *o.Compression != config.CompressionNone {
			compressions[*o.Compression] = true
		}
	}
	// Standard Edition has neither option; Enterprise Edition needs the
	// licence, which no catalog view shows; Express Edition 18c+, Free 23ai
	// and Autonomous Database include both.
	grade := func() Status {
		if strings.Contains(r.Facts.Server.Edition, "Standard") {
			return Fail
		}
		return Warn
	}
	if partitioned {
		r.add(grade(), "options", "partitioning: new tables are interval-partitioned; this needs Enterprise Edition with the Partitioning option (licensed separately; included in Express Edition 18c+, Free 23ai and Autonomous Database)")
	}
	if compressions["advanced"] {
		r.add(grade(), "options", "compression advanced: ROW STORE COMPRESS ADVANCED needs Enterprise Edition with the Advanced Compression option (licensed separately; included in Express Edition 18c+, Free 23ai and Autonomous Database)")
	}
	for _, c := range []string{"query_low", "query_high", "archive_low", "archive_high"} {
		if compressions[c] {
			r.add(Warn, "options", "compression %s: Hybrid Columnar Compression needs Exadata, ZFS Storage Appliance or Pillar Axiom storage, or Autonomous Database; elsewhere CREATE TABLE fails with ORA-64307", c)
			break
		}
	}
}
