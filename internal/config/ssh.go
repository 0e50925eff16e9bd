package config

import (
	"fmt"
	"strings"
)

// convSSHTunnel reads the ssh_tunnel object; its keys are the members of
// the ssh_tunnel row. A null member is left unset. Its errors name the key
// and what was expected, never a value: three of the keys are secrets.
func convSSHTunnel(t []setting, v any) (any, error) {
	obj := v.(*object)
	s, _ := lookup(t, "ssh_tunnel")
	c := &Config{SSHTunnel: SSHTunnel{Port: 22}}
	for _, m := range obj.members {
		if m.val == nil {
			continue
		}
		mem, err := s.member(m.key)
		if err != nil {
			return nil, fmt.Errorf("ssh_tunnel.%s: %w", m.key, err)
		}
		val, err := mem.checkMember(m.val)
		if err == nil {
			err = mem.store(c, val)
		}
		if err != nil {
			return nil, fmt.Errorf("ssh_tunnel.%s: %w", m.key, err)
		}
	}
	st := c.SSHTunnel
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

// member returns the member row of s named key (exactly, else ignoring
// case), or an error listing the members.
func (s *setting) member(key string) (*setting, error) {
	for _, fold := range []bool{false, true} {
		for i := range s.members {
			if match(s.members[i].name, key, fold) {
				return &s.members[i], nil
			}
		}
	}
	names := make([]string, len(s.members))
	for i, m := range s.members {
		names[i] = m.name
	}
	return nil, fmt.Errorf("unknown key (expected %s)", strings.Join(names, ", "))
}

// checkMember checks the value of a member: as checkKind, except that a
// text member given in JSON must be a JSON string (a number for a password
// is more likely a mistake than a wish).
func (s *setting) checkMember(raw any) (any, error) {
	if _, isString := raw.(string); !isString && (s.kind == kindString || s.kind == kindSecret) {
		return nil, fmt.Errorf("expected a string")
	}
	return s.checkKind(raw)
}

// lookupMember finds the member a key names: <setting>.<member> (a config
// key; Meltano's name of a nested setting), or, when env is true,
// <setting>_<member> (the environment variable's name without its prefix,
// as Meltano derives it: every character other than a letter or digit
// becomes "_"). Case is ignored.
func lookupMember(t []setting, key string, env bool) (*setting, *setting) {
	for i := range t {
		s := &t[i]
		for j := range s.members {
			m := &s.members[j]
			if strings.EqualFold(key, s.name+"."+m.name) || env && strings.EqualFold(key, s.name+"_"+m.name) {
				return s, m
			}
		}
	}
	return nil, nil
}

// memberKey is the layer key of member m of s.
func memberKey(s, m *setting) string { return s.name + "." + m.name }
