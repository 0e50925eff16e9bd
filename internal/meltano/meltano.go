// Package meltano renders target-oracle's Meltano plugin definition (the
// loader entry a meltano.yml or Meltano Hub holds) from the settings table in
// package config, so that the definition shipped in meltano/target-oracle.yml
// can never list a setting the binary does not have, or miss one it has.
//
// The YAML is written by hand: the shape is fixed and small, and every string
// is either a plain scalar from a conservative alphabet or a double-quoted
// JSON string, which YAML reads back unchanged.
package meltano

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/target-oracle/target-oracle/internal/about"
	"regexp"
	"strings"

	"github.com/target-oracle/target-oracle/internal/config"
)

// Plugin identity, as Meltano and the wheel name it.
const (
	Name = "target-oracle" // plugin and executable name
	// Dist is the pip distribution (PyPI project) that carries the binary.
	// Not "target-oracle": that PyPI name belongs to radbrt's Singer SDK
	// target (the Meltano Hub variant); packaging/wheel/build_wheel.py
	// builds target-oracle-go wheels.
	Dist      = "target-oracle-go"
	Namespace = "target_oracle" // Meltano namespace: settings are TARGET_ORACLE_<NAME>
	Variant   = "target-oracle" // Hub variant (the GitHub owner)
	Repo      = "https://github.com/target-oracle/target-oracle"
)

// DefaultVersion is the release the shipped definition's pip_url pins: the
// version of the source tree (internal/about/VERSION). Bump that file with
// each release and regenerate: go test ./internal/meltano -update.
var DefaultVersion = about.Release()

// Capabilities returns the capabilities --about advertises (internal/cli),
// in the same order; TestCapabilitiesMatchAbout keeps the two lists equal.
// Meltano's meltano.yml schema does not list validate-records and
// target-schema among loader capabilities; Meltano ignores capabilities it
// does not act on, and the Singer SDK names them so.
func Capabilities() []string { return about.Capabilities() }

const description = about.Description

// pep440 matches a public PEP 440 version in its normal form (1.2.3,
// 1.2.3rc1, 1.2.3.post1, 1.2.3.dev0), which pip compares and wheels carry.
var pep440 = regexp.MustCompile(`^(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*))*((a|b|rc)(0|[1-9][0-9]*))?(\.post(0|[1-9][0-9]*))?(\.dev(0|[1-9][0-9]*))?$`)

// PipURL returns the pip_url of a published release: pip fetches that
// release's wheel for the machine's platform from PyPI (a wheel per
// platform, each carrying the static binary; .github/workflows/release.yml
// publishes them). version must be a PEP 440 version such as 0.1.0.
func PipURL(version string) (string, error) {
	if !pep440.MatchString(version) {
		return "", fmt.Errorf("meltano: version %q is not a PEP 440 version like 0.1.0", version)
	}
	return fmt.Sprintf("%s==%s", Dist, version), nil
}

// LocalPipURL is the pip_url of wheels built from a clone into dir
// (packaging/build-wheel.sh): pip picks the one for the machine's platform
// and never asks an index.
func LocalPipURL(dir string) string {
	return "--no-index --find-links " + dir + " " + Dist
}

// PluginDefinition renders the loader definition for release version (a
// PEP 440 version, see PipURL): name, namespace, pip_url, executable,
// capabilities and every setting of config.Settings with its Meltano kind.
//
// Secrets are kind string with sensitive: true (kind password is deprecated
// in Meltano's schema); enums are kind options. Defaults are stated in the
// descriptions but not given as value: Meltano exports every setting that
// has a value to the plugin as TARGET_ORACLE_<NAME>, and a default exported
// that way would override, or conflict with, a peer target's alias the user
// wrote in meltano.yml (batch_size, use_ssl). The binary applies the same
// defaults itself.
func PluginDefinition(version string) ([]byte, error) {
	pip, err := PipURL(version)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("# Generated from internal/config's settings table by internal/meltano; do not edit.\n")
	b.WriteString("# Regenerate: go test ./internal/meltano -run TestPluginDefinitionUpToDate -update\n")
	field(&b, "", "name", Name)
	field(&b, "", "namespace", Namespace)
	field(&b, "", "variant", Variant)
	field(&b, "", "label", "Oracle")
	field(&b, "", "description", description)
	field(&b, "", "repo", Repo)
	field(&b, "", "docs", Repo+"/blob/main/docs/meltano.md")
	field(&b, "", "pip_url", pip)
	field(&b, "", "executable", Name)
	field(&b, "", "dialect", "oracle")
	b.WriteString("capabilities:\n")
	for _, c := range Capabilities() {
		b.WriteString("- " + scalar(c) + "\n")
	}
	b.WriteString("settings:\n")
	for _, s := range Flat(config.Settings()) {
		if err := writeSetting(&b, s); err != nil {
			return nil, fmt.Errorf("meltano: setting %s: %w", s.Name, err)
		}
	}
	return b.Bytes(), nil
}

// Flat returns the settings as the definition lists them: an object
// setting with members (ssh_tunnel) is replaced by its members, named
// ssh_tunnel.host and so on, as Meltano Hub's MeltanoLabs target-postgres
// lists its ssh_tunnel. Meltano nests such dotted settings into one object
// in the config.json it writes, and exports each one as
// TARGET_ORACLE_SSH_TUNNEL_HOST; the binary reads both. Listing the members
// is what lets Meltano know which of them are secrets.
func Flat(settings []config.Setting) []config.Setting {
	var out []config.Setting
	for _, s := range settings {
		if s.Members != nil {
			out = append(out, s.Members...)
			continue
		}
		out = append(out, s)
	}
	return out
}

func writeSetting(b *bytes.Buffer, s config.Setting) error {
	kind, err := Kind(s)
	if err != nil {
		return err
	}
	desc, err := describe(s)
	if err != nil {
		return err
	}
	field(b, "- ", "name", s.Name)
	field(b, "  ", "label", Label(s.Name))
	field(b, "  ", "kind", kind)
	field(b, "  ", "description", desc)
	if s.Secret {
		b.WriteString("  sensitive: true\n")
	}
	if kind == "options" {
		b.WriteString("  options:\n")
		for _, e := range s.Enum {
			field(b, "  - ", "label", optionLabel(e))
			field(b, "    ", "value", e)
		}
	}
	return nil
}

// Kind returns the Meltano setting kind of s: string (secrets too, marked
// sensitive), options (enums), integer, boolean, array or object. A setting
// that takes an array or an object (ignored_columns) is array: Meltano only
// checks the JSON of values given as text (environment, meltano config set),
// and an object written in meltano.yml passes through unchanged.
func Kind(s config.Setting) (string, error) {
	switch {
	case s.Secret:
		return "string", nil
	case len(s.Enum) > 0:
		return "options", nil
	}
	switch s.Type {
	case "string", "integer", "boolean", "array", "object":
		return s.Type, nil
	case "number":
		return "decimal", nil
	case "array|object":
		return "array", nil
	case "object|none":
		return "object", nil
	}
	return "", fmt.Errorf("no Meltano kind for type %q", s.Type)
}

// describe is the setting's description followed by its default, if any.
func describe(s config.Setting) (string, error) {
	d := strings.TrimSpace(s.Description)
	if s.Default == nil {
		return d, nil
	}
	if str, ok := s.Default.(string); ok {
		if str == "" {
			return d + ` Default: "" (empty).`, nil
		}
		return d + " Default: " + str + ".", nil
	}
	j, err := json.Marshal(s.Default)
	if err != nil {
		return "", fmt.Errorf("default: %w", err)
	}
	return d + " Default: " + string(j) + ".", nil
}

// acronyms are words a label writes in capitals.
var acronyms = map[string]string{
	"dsn": "DSN", "sid": "SID", "tns": "TNS", "ssl": "SSL", "json": "JSON", "ddl": "DDL",
	"http": "HTTP", "lob": "LOB", "id": "ID", "dn": "DN", "ssh": "SSH",
}

// Label turns a setting name into a title: connect_timeout_seconds is
// "Connect Timeout Seconds", tns_admin is "TNS Admin", ssh_tunnel.host
// "SSH Tunnel Host".
func Label(name string) string {
	words := strings.Split(strings.ReplaceAll(name, ".", "_"), "_")
	for i, w := range words {
		if a, ok := acronyms[w]; ok {
			words[i] = a
		} else if w != "" {
			words[i] = strings.ToUpper(w[:1]) + w[1:]
		}
	}
	return strings.Join(words, " ")
}

// optionLabel labels an enum value: append-only is "Append Only", tcps
// "TCPS", 30 "30".
func optionLabel(v string) string {
	switch v {
	case "tcp", "tcps", "json", "clob":
		return strings.ToUpper(v)
	case "timestamp_tz":
		return "Timestamp with time zone"
	}
	return Label(strings.ReplaceAll(v, "-", "_"))
}

// field writes `prefix key: value` with value quoted as needed.
func field(b *bytes.Buffer, prefix, key, value string) {
	b.WriteString(prefix)
	b.WriteString(key)
	b.WriteString(": ")
	b.WriteString(scalar(value))
	b.WriteByte('\n')
}

// plainSafe matches strings that YAML 1.1 and 1.2 both read as the same
// plain string: a letter or $ first, then letters, digits and _ . / - $ =.
var plainSafe = regexp.MustCompile(`^[A-Za-z$][A-Za-z0-9_./$=-]*$`)

// scalar returns s as a YAML scalar that reads back as the string s: plain
// when that is unambiguous, else a double-quoted string with JSON escapes
// (a JSON string is a valid YAML double-quoted scalar).
func scalar(s string) string {
	if plainSafe.MatchString(s) && !special(s) {
		return s
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil { // cannot fail for a string
		return `""`
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// special reports words YAML 1.1 reads as booleans or null.
func special(s string) bool {
	switch strings.ToLower(s) {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null":
		return true
	}
	return false
}
