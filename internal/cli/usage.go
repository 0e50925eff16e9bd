package cli

import (
	"errors"
	"strings"

	"github.com/target-oracle/target-oracle/internal/config"
)

// reportUsage is the command-line rule for the report modes that answer on
// stdout without reading input: --about (which may still take --config, as
// the Singer SDK's does) and --check. Combined with a load mode or --input
// one of the two would be silently ignored; SPEC §2 makes a wrong command
// line exit 2 instead. "" when the flags are fine.
func reportUsage(o options) string {
	switch {
	case o.about && (o.check || o.dryRun || o.plan || o.input != ""):
		return "--about excludes --check, --dry-run, --plan and --input"
	case o.check && o.input != "":
		return "--check reads no input: it only connects and reports"
	}
	return ""
}

// configText is a settings error's text without the "config: " its
// *config.Error starts with: the line already says "configuration: ".
func configText(err error) string {
	msg := err.Error()
	var ce *config.Error
	if errors.As(err, &ce) {
		msg = strings.TrimPrefix(msg, "config: ")
	}
	return msg
}
