package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/target-oracle/target-oracle/internal/about"
	"github.com/target-oracle/target-oracle/internal/config"
)

func printAbout(format string, out, stderr io.Writer) int {
	switch format {
	case "json":
		b, err := json.MarshalIndent(map[string]any{
			"name":         "target-oracle",
			"description":  about.Description,
			"version":      about.Version(),
			"capabilities": about.Capabilities(),
			"settings":     config.AboutSchema(),
		}, "", "  ")
		if err != nil {
			fmt.Fprintf(stderr, "target-oracle: about: %v\n", err)
			return ExitFailed
		}
		fmt.Fprintln(out, string(b))
	case "markdown":
		fmt.Fprintf(out, "# `target-oracle`\n\n%s\n\nVersion: %s\n\n## Capabilities\n\n", about.Description, about.Version())
		for _, c := range about.Capabilities() {
			fmt.Fprintf(out, "* `%s`\n", c)
		}
		fmt.Fprintf(out, "\n## Settings\n\n%s", config.MarkdownReference())
	default:
		fmt.Fprintf(out, "Name: target-oracle\nDescription: %s\nVersion: %s\nCapabilities:\n", about.Description, about.Version())
		for _, c := range about.Capabilities() {
			fmt.Fprintf(out, "  - %s\n", c)
		}
		fmt.Fprintln(out, "Settings:")
		for _, s := range config.Settings() {
			extra := ""
			if s.Secret {
				extra = " (secret)"
			}
			fmt.Fprintf(out, "  - Name: %s\n    Type: %s%s\n    Description: %s\n", s.Name, textType(s), extra, s.Description)
			if d := textDefault(s); d != "" {
				fmt.Fprintf(out, "    Default: %s\n", d)
			}
			fmt.Fprintf(out, "    Environment Variable: %s\n", s.EnvVar)
			if len(s.Aliases) > 0 {
				names := make([]string, len(s.Aliases))
				for i, a := range s.Aliases {
					names[i] = a.Name
				}
				fmt.Fprintf(out, "    Aliases: %s\n", strings.Join(names, ", "))
			}
		}
	}
	return ExitOK
}

// textType is a setting's type with its allowed values or range, as the
// markdown reference shows them.
func textType(s config.Setting) string {
	switch {
	case s.Enum != nil:
		return s.Type + " (" + strings.Join(s.Enum, " | ") + ")"
	case s.Min != nil:
		return fmt.Sprintf("%s (%d to %d)", s.Type, *s.Min, *s.Max)
	}
	return s.Type
}

// textDefault is a setting's default as JSON ("" when it has none;
// "required" for what a connection needs).
func textDefault(s config.Setting) string {
	if s.Required {
		return "required"
	}
	if s.Default == nil {
		return ""
	}
	b, err := json.Marshal(s.Default)
	if err != nil {
		return fmt.Sprint(s.Default)
	}
	return string(b)
}
