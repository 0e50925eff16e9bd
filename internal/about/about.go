// Package about is what target-oracle says about itself: name,
// description, version and capabilities. --about and the Meltano plugin
// definition both read it, so they cannot drift apart.
package about

import (
	_ "embed"
	"runtime/debug"
	"strings"
)

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

// release is the version of this source tree: the one line of the file
// VERSION beside this one, the single source of truth for the version.
// The Meltano definition pins it (internal/meltano), the release tag must
// name it (packaging/check-release-version.sh), and unstamped builds and
// wheels report its development form (DevVersion; packaging/*.sh read the
// same file). TestOneVersion in internal/meltano checks them all.
//
//go:embed VERSION
var release string

// Release is the version of this source tree (internal/about/VERSION),
// e.g. 0.1.0.
func Release() string { return strings.TrimSpace(release) }

// DevVersion is what a build that no release stamped reports: Release's
// PEP 440 development release (0.1.0.dev0), as the default wheel of
// packaging/build-wheel.sh is named.
func DevVersion() string { return Release() + ".dev0" }

// BuildVersion is set at build time (-ldflags "-X …/internal/about.BuildVersion=1.2.3");
// otherwise the module version from the build info is used.
var BuildVersion = ""

// Version is the version target-oracle reports: the stamped one, else
// the module version of `go install …@vX.Y.Z` (without its "v", as the
// wheels and the Meltano definition write it), else DevVersion.
func Version() string {
	if BuildVersion != "" {
		return BuildVersion
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return strings.TrimPrefix(bi.Main.Version, "v")
	}
	return DevVersion()
}
