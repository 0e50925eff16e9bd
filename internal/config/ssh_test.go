package config

import (
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"testing"
)

func TestSSHTunnelSetting(t *testing.T) {
	c, _ := mustLoad(t, nil, `{"ssh_tunnel": {"enable": true, "host": "bastion", "username": "u",
		"private_key": "-----BEGIN KEY-----topsecretkey", "private_key_password": "keypass99", "password": "sshpass77",
		"host_key": "SHA256:abc"}}`)
	want := SSHTunnel{Enable: true, Host: "bastion", Port: 22, Username: "u", PrivateKey: "-----BEGIN KEY-----topsecretkey",
		PrivateKeyPassword: "keypass99", Password: "sshpass77", HostKey: "SHA256:abc"}
	if c.SSHTunnel != want {
		t.Fatalf("got %#v", c.SSHTunnel)
	}
	var b strings.Builder
	slog.New(slog.NewTextHandler(&b, nil)).Info("config", "cfg", c)
	printed := b.String() + fmt.Sprintf("%v %+v %#v", c, c.SSHTunnel, c.SSHTunnel)
	for _, s := range []string{"topsecretkey", "keypass99", "sshpass77"} {
		if strings.Contains(printed, s) {
			t.Errorf("secret %q printed: %s", s, printed)
		}
	}
	d, _ := mustLoad(t, []string{`TARGET_ORACLE_SSH_TUNNEL={"enable":"false","port":"2222"}`}, `{}`)
	if d.SSHTunnel != (SSHTunnel{Port: 2222}) {
		t.Errorf("env: got %#v", d.SSHTunnel)
	}
	if e, _ := mustLoad(t, nil, `{}`); e.SSHTunnel.Enable {
		t.Error("enabled by default")
	}
}

func TestSSHTunnelSettingErrors(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{`{"enable": true, "username": "u", "password": "p"}`, "ssh_tunnel.host: required"},
		{`{"enable": true, "host": "h", "password": "p"}`, "ssh_tunnel.username: required"},
		{`{"enable": true, "host": "h", "username": "u"}`, "give private_key or password"},
		{`{"port": 0}`, "ssh_tunnel.port: expected an integer from 1 to 65535"},
		{`{"password": 12345678}`, "ssh_tunnel.password: expected a string"},
		{`{"pasword": "sekrit-value"}`, `ssh_tunnel.pasword: unknown key`},
		{`"not json"`, "expected an object"},
	} {
		_, _, err := loadJSON(t, nil, `{"ssh_tunnel": `+tc.doc+`}`)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.doc, err, tc.want)
		}
		if err != nil && (strings.Contains(err.Error(), "12345678") || strings.Contains(err.Error(), "sekrit")) {
			t.Errorf("%s: value in error %v", tc.doc, err)
		}
	}
	// Given twice with different values: the message must not show secrets.
	_, _, err := loadJSON(t, []string{`TARGET_ORACLE_SSH_TUNNEL={"password":"envsecret1"}`}, `{"ssh_tunnel": {"password": "filesecret2"}}`)
	if err != nil && (strings.Contains(err.Error(), "envsecret1") || strings.Contains(err.Error(), "filesecret2")) {
		t.Errorf("conflict shows a secret: %v", err)
	}
}

// What Meltano passes for the dotted settings ssh_tunnel.host and so on: a
// nested object in config.json, and each member as
// TARGET_ORACLE_SSH_TUNNEL_HOST in the environment. A config may also spell
// a member as a dotted key. A member from a later source overrides that
// member only.
func TestSSHTunnelMembers(t *testing.T) {
	env := []string{
		"TARGET_ORACLE_SSH_TUNNEL_ENABLE=true",
		"TARGET_ORACLE_SSH_TUNNEL_HOST=bastion",
		"TARGET_ORACLE_SSH_TUNNEL_PORT=2200",
		"TARGET_ORACLE_SSH_TUNNEL_USERNAME=u",
		"TARGET_ORACLE_SSH_TUNNEL_PRIVATE_KEY=-----BEGIN KEY-----envkeysecret",
		"TARGET_ORACLE_SSH_TUNNEL_PRIVATE_KEY_PASSWORD=envpass42",
	}
	c, r := mustLoad(t, env, `{}`)
	want := SSHTunnel{Enable: true, Host: "bastion", Port: 2200, Username: "u",
		PrivateKey: "-----BEGIN KEY-----envkeysecret", PrivateKeyPassword: "envpass42"}
	if c.SSHTunnel != want {
		t.Errorf("env members: got %#v", c.SSHTunnel)
	}
	if len(r.Warnings) != 0 {
		t.Errorf("warnings: %q", r.Warnings)
	}

	// The environment overrides one member of the file's object.
	c, _ = mustLoad(t, []string{"TARGET_ORACLE_SSH_TUNNEL_HOST=other"},
		`{"ssh_tunnel": {"enable": true, "host": "bastion", "username": "u", "password": "pw"}}`)
	if c.SSHTunnel != (SSHTunnel{Enable: true, Host: "other", Port: 22, Username: "u", Password: "pw"}) {
		t.Errorf("override: got %#v", c.SSHTunnel)
	}

	// Dotted keys in a config file.
	c, _ = mustLoad(t, nil, `{"ssh_tunnel.enable": true, "ssh_tunnel.host": "h", "ssh_tunnel.username": "u",
		"ssh_tunnel.password": "pw", "ssh_tunnel.port": 2022}`)
	if c.SSHTunnel != (SSHTunnel{Enable: true, Host: "h", Port: 2022, Username: "u", Password: "pw"}) {
		t.Errorf("dotted: got %#v", c.SSHTunnel)
	}

	// The required members are checked on the merged object: the file
	// enables, the environment gives the rest.
	_, _, err := loadJSON(t, []string{"TARGET_ORACLE_SSH_TUNNEL_USERNAME=u", "TARGET_ORACLE_SSH_TUNNEL_PASSWORD=x"},
		`{"ssh_tunnel.enable": true}`)
	if err == nil || !strings.Contains(err.Error(), "ssh_tunnel.host: required") {
		t.Errorf("merged check: %v", err)
	}

	for _, tc := range []struct {
		env  []string
		doc  string
		want string
	}{
		{[]string{"TARGET_ORACLE_SSH_TUNNEL_PORT=0"}, `{}`, "TARGET_ORACLE_SSH_TUNNEL_PORT: expected an integer from 1 to 65535"},
		{nil, `{"ssh_tunnel.password": 12345678}`, "ssh_tunnel.password: expected a string"},
		{nil, `{"ssh_tunnel": {"host": "a"}, "ssh_tunnel.host": "b"}`, "with different values"},
		{nil, `{"ssh_tunnel": {"password": "sekrit-a"}, "ssh_tunnel.password": "sekrit-b"}`, "with different values"},
	} {
		_, _, err := loadJSON(t, tc.env, tc.doc)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v %s: got %v, want %q", tc.env, tc.doc, err, tc.want)
		}
		if err != nil && (strings.Contains(err.Error(), "12345678") || strings.Contains(err.Error(), "sekrit")) {
			t.Errorf("%s: secret in error %v", tc.doc, err)
		}
	}

	// A misspelt member is warned about with the closest member's variable.
	_, r = mustLoad(t, []string{"TARGET_ORACLE_SSH_TUNNEL_HOTS=h"}, `{}`)
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], `"TARGET_ORACLE_SSH_TUNNEL_HOST"`) {
		t.Errorf("warnings: %q", r.Warnings)
	}
}

// --about and docs/settings.md list the members with their secrecy, and
// never a secret's value.
func TestSSHTunnelMembersDocumented(t *testing.T) {
	var ssh Setting
	for _, s := range Settings() {
		if s.Name == "ssh_tunnel" {
			ssh = s
		}
	}
	secret := map[string]bool{}
	for _, m := range ssh.Members {
		secret[m.Name] = m.Secret
		if m.EnvVar != envVar(m.Name) || !strings.HasPrefix(m.EnvVar, "TARGET_ORACLE_SSH_TUNNEL_") {
			t.Errorf("%s: env var %s", m.Name, m.EnvVar)
		}
	}
	want := map[string]bool{"ssh_tunnel.enable": false, "ssh_tunnel.host": false, "ssh_tunnel.port": false,
		"ssh_tunnel.username": false, "ssh_tunnel.private_key": true, "ssh_tunnel.private_key_password": true,
		"ssh_tunnel.password": true, "ssh_tunnel.host_key": false, "ssh_tunnel.known_hosts": false}
	if !reflect.DeepEqual(secret, want) {
		t.Errorf("members %v, want %v", secret, want)
	}
	props, _ := AboutSchema()["properties"].(map[string]any)
	st, _ := props["ssh_tunnel"].(map[string]any)
	members, _ := st["properties"].(map[string]any)
	pk, _ := members["private_key"].(map[string]any)
	port, _ := members["port"].(map[string]any)
	if pk["secret"] != true || pk["type"] != "string" || port["type"] != "integer" || port["default"] != 22 {
		t.Errorf("about schema ssh_tunnel: %v", st)
	}
	md := MarkdownReference()
	for _, row := range []string{
		"| `ssh_tunnel.private_key` | string, **secret** | — | `TARGET_ORACLE_SSH_TUNNEL_PRIVATE_KEY` |",
		"| `ssh_tunnel.private_key_password` | string, **secret** | — | `TARGET_ORACLE_SSH_TUNNEL_PRIVATE_KEY_PASSWORD` |",
		"| `ssh_tunnel.port` | integer (1–65535) | `22` | `TARGET_ORACLE_SSH_TUNNEL_PORT` |",
	} {
		if !strings.Contains(md, row) {
			t.Errorf("markdown lacks %q", row)
		}
	}
}
