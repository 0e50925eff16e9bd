package config

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/settings.md from the settings table")

const docPath = "../../docs/settings.md"

// settingsPage is docs/settings.md: a fixed preamble around MarkdownReference.
func settingsPage() string {
	var b strings.Builder
	b.WriteString("<!-- Code generated from internal/config/settings.go. DO NOT EDIT. -->\n")
	b.WriteString("<!-- Regenerate: go test ./internal/config -run TestSettingsDocUpToDate -update -->\n\n")
	b.WriteString("# Settings\n\n")
	b.WriteString("_This page is generated from the settings table in `internal/config/settings.go`; " +
		"regenerate it with `go test ./internal/config -run TestSettingsDocUpToDate -update`._\n\n")
	b.WriteString(`Settings come from, in increasing precedence: defaults, the ` + "`--config`" + ` files (left to
right), the ` + "`.env`" + ` file in the working directory (read only with ` + "`--config ENV`" + `), and the process
environment. Every setting ` + "`name`" + ` can be set by the variable ` + "`TARGET_ORACLE_<NAME>`" + `; aliases
work the same way (` + "`TARGET_ORACLE_SQLALCHEMY_URL`" + `). Environment values are read by the setting's
type: integers as decimal text, booleans as ` + "`true/false/1/0/yes/no/on/off`" + `, arrays as JSON or a
comma-separated list, objects as JSON. Objects may also be given as a string holding JSON in a file.
A setting whose value is JSON ` + "`null`" + ` is not set (the SDK targets' configs write ` + "`null`" + ` for "not given"): the default, or a later source, applies.
So is a null anywhere inside one (a ` + "`TargetOracle`" + ` block, an entry of a mapping, a ` + "`stream_overrides`" + ` value, an index's ` + "`name`" + `),
except in ` + "`stream_maps`" + ` and ` + "`stream_map_config`" + `, where null is a value (the SDK's "remove this property").
An empty environment or ` + "`.env`" + ` value (` + "`TARGET_ORACLE_HOST=`" + `) is not set either: it overrides no file value.
A config or ` + "`.env`" + ` file must be a regular file (not a device, pipe or directory) of at most 16 MiB.
The ` + "`.env`" + ` file is read as python-dotenv (Meltano's) reads it: ` + "`KEY=value`" + `, ` + "`export`" + ` and ` + "`#`" + ` comments allowed, a key alone sets nothing;
a quoted value may span lines; in single quotes only ` + "`\\\\`" + ` and ` + "`\\'`" + ` are escapes, in double quotes also ` + "`\\\"`" + `,
` + "`\\n`" + `, ` + "`\\t`" + ` and the like; any other backslash is kept (a Windows path needs no doubling).
As in python-dotenv, ` + "`${NAME}`" + ` and ` + "`${NAME:-default}`" + ` are expanded in every value, quoted ones too: from a key above
in the file (a key alone counts as empty), else the process environment, else the default (or empty); ` + "`$NAME`" + `
without braces is kept as it is, and a key may be written in single quotes (` + "`'KEY'=value`" + `); a line python-dotenv
cannot parse (a key starting with ` + "`'`" + ` that is not a whole quoted key, say) is an error naming its line.
Any ` + "`dsn`" + ` form but a URL may start with SQL*Plus's ` + "`user/password@`" + `, which fills ` + "`user`" + ` and
` + "`password`" + ` when those are not set: the last ` + "`@`" + ` ends the password and the first ` + "`/`" + ` ends the user
(see [Connecting](oracle.md#connecting)).

Configs written for the Singer SDK targets, radbrt's target-oracle and flext-target-oracle load as
they are: aliases are honoured with their values mapped (the effective value is logged at start),
flext's nesting under a ` + "`TargetOracle`" + ` key is read, and peer settings that do not apply are
ignored with a warning. A config shaped for flext (a ` + "`TargetOracle`" + ` block or ` + "`oracle_*`" + ` names) draws one
warning naming each flext default it relies on that target-oracle does not share (` + "`storage_mode`" + `
flattened, ` + "`load_method`" + ` INSERT, schema ` + "`SINGER_DATA`" + `, service ` + "`XEPDB1`" + `). flext's ` + "`sdc_mode`" + ` is
combined with ` + "`load_method`" + ` as flext does when ` + "`load_method`" + ` is absent or a flext value (` + "`INSERT`" + `,
` + "`BULK_INSERT`, `MERGE`, `BULK_MERGE`" + `, any case): upsert if either says merge, else append-only;
beside a target-oracle ` + "`load_method`" + ` it is ignored, with a warning if it disagrees. Meltano's own
variables (` + "`TARGET_ORACLE__*`" + `, a double underscore) are not settings and draw no warning.
Entries of ` + "`table_name_mappings`, `column_mappings`, `ignored_columns`, `custom_indexes` and `stream_overrides`" + ` that
matched no stream or property of the input draw one warning each at the end of a complete run.
Unknown keys are warned about, naming the closest known setting. A wrong
type or value, or one setting given twice in one source with different values (say a name and an
alias), is a configuration error (exit code 2). Secrets never appear in logs or errors. Names used
verbatim in SQL (` + "`tablespace`, `index_tablespace`, `lob_tablespace`, `grant_select_to`" + `, the values of
` + "`table_name_mappings` and `column_mappings`, `custom_indexes`" + ` names) must not contain ` + "`\"`" + ` or a
control character (NUL, newline, …).

`)
	b.WriteString(MarkdownReference())
	return b.String()
}

func TestSettingsDocUpToDate(t *testing.T) {
	want := settingsPage()
	if *update {
		if err := os.MkdirAll(filepath.Dir(docPath), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(docPath, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatalf("%v (run: go test ./internal/config -run TestSettingsDocUpToDate -update)", err)
	}
	if string(got) != want {
		t.Errorf("docs/settings.md is stale; run: go test ./internal/config -run TestSettingsDocUpToDate -update")
	}
}
