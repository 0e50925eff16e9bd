package config

import (
	"fmt"
	"log/slog"
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
