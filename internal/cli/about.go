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
			fmt.Fprintf(out, "  - Name: %s\n    Type: %s%s\n    Environment Variable: %s\n", s.Name, s.Type, extra, s.EnvVar)
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
