// Package about is what target-oracle says about itself: name,
// description, version and capabilities. --about and the Meltano plugin
// definition both read it, so they cannot drift apart.
package about

import "runtime/debug"

// Name is the plugin's name.
const Name = "target-oracle"

// Description is the one-line description.
const Description = "Singer target that loads any tap's output into Oracle Database: " +
	"exact values, state only after commit, array-bound loading."

// Capabilities advertised by --about and the Meltano plugin definition.
func Capabilities() []string {
	return []string{"about", "schema-flattening", "validate-records", "activate-version",
		"target-schema", "hard-delete", "soft-delete", "batch", "stream-maps"}
}

// BuildVersion is set at build time (-ldflags "-X …/internal/about.BuildVersion=v1.2.3");
// otherwise the module version from the build info is used.
var BuildVersion = ""

// Version is the version target-oracle reports.
func Version() string {
	if BuildVersion != "" {
		return BuildVersion
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "0.1.0-dev"
}
