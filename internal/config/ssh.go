package config

import (
	"fmt"
	"strings"
)

// convSSHTunnel reads the ssh_tunnel object. Its errors name the key and
// what was expected, never a value: three of the keys are secrets.
func convSSHTunnel(_ []setting, v any) (any, error) {
	obj := v.(*object)
	st := SSHTunnel{Port: 22}
	for _, m := range obj.members {
		if err := st.set(m.key, m.val); err != nil {
			return nil, fmt.Errorf("ssh_tunnel.%s: %w", m.key, err)
		}
	}
	if !st.Enable {
		return st, nil
	}
	switch {
	case strings.TrimSpace(st.Host) == "":
		return nil, fmt.Errorf("ssh_tunnel.host: required when ssh_tunnel.enable is true")
	case st.Username == "":
		return nil, fmt.Errorf("ssh_tunnel.username: required when ssh_tunnel.enable is true")
	case st.PrivateKey == "" && st.Password == "":
		return nil, fmt.Errorf("ssh_tunnel: give private_key or password when enable is true")
	}
	return st, nil
}

func (st *SSHTunnel) set(key string, val any) error {
	str := func(p *string) error {
		s, ok := val.(string)
		if !ok && val != nil {
			return fmt.Errorf("expected a string")
		}
		*p = s
		return nil
	}
	secret := func(p *Secret) error {
		var s string
		err := str(&s)
		*p = Secret(s)
		return err
	}
	switch key {
	case "enable":
		b, err := checkBool(val)
		st.Enable = b
		return err
	case "host":
		return str(&st.Host)
	case "port":
		n, err := (&setting{kind: kindInteger, min: 1, max: 65535}).checkKind(val)
		if err != nil {
			return err
		}
		st.Port = int(n.(int64))
		return nil
	case "username":
		return str(&st.Username)
	case "private_key":
		return secret(&st.PrivateKey)
	case "private_key_password":
		return secret(&st.PrivateKeyPassword)
	case "password":
		return secret(&st.Password)
	case "host_key":
		return str(&st.HostKey)
	case "known_hosts":
		return str(&st.KnownHosts)
	}
	return fmt.Errorf("unknown key (expected enable, host, port, username, private_key, private_key_password, " +
		"password, host_key, known_hosts)")
}
