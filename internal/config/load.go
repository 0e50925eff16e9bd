package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
)

// EnvPrefix starts the environment variable of every setting:
// TARGET_ORACLE_<SETTING IN UPPER CASE>, as Meltano exports them.
const EnvPrefix = "TARGET_ORACLE_"

// TestEnvPrefix starts variables reserved for tests (TARGET_ORACLE_TEST_DSN,
// TARGET_ORACLE_TEST_NOW): they are never settings and never warned about.
const TestEnvPrefix = EnvPrefix + "TEST_"

// CPUProfileEnv names a file to write a CPU profile of the run to
// (docs/performance.md). It is read by the command, not a setting.
const CPUProfileEnv = EnvPrefix + "CPUPROFILE"

// envConfigArg is the --config value that reads the .env file.
const envConfigArg = "ENV"

// Sources names where the configuration comes from.
type Sources struct {
	ConfigArgs []string // --config values in order: file paths or the literal "ENV"
	Environ    []string // the process environment, as os.Environ returns it
	WorkDir    string   // where .env is looked for
}

// Report tells the operator what Load accepted without failing.
type Report struct {
	// Warnings: unknown keys (with the closest known name) and peer
	// settings that do not apply. Never a secret's value.
	Warnings []string
	// Effective: the value in effect for every setting given through an
	// alias or a peer spelling of a value, secrets redacted. Peer targets'
	// defaults differ, so these are logged at start.
	Effective []string
}

// Error is a configuration error: a wrong value or type, a conflict, an
// unreadable or malformed file. The CLI maps it to exit code 2. Its text
// never contains a secret's value.
type Error struct {
	Source string // config file path, .env path or "environment"; "" when not tied to one
	Key    string // the key as written (setting, alias or env var); "" when not about one key
	Msg    string
	Err    error // underlying cause, if any
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("config")
	for _, part := range []string{e.Source, e.Key, e.Msg} {
		if part != "" {
			b.WriteString(": ")
			b.WriteString(part)
		}
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// entry is one setting as given in one source.
type entry struct {
	key    string // as written
	alias  *alias // nil when given by its canonical name
	raw    any    // value as written
	value  any    // checked value, in the field's type
	source string
}

// layer holds one source's settings by canonical name.
type layer map[string]*entry

type loader struct {
	t      []setting
	report Report
	errs   []error
	// flextShape says where a config first looked written for
	// flext-target-oracle; "" when it does not.
	flextShape string
}

// Load reads the configuration: defaults, then the --config files left to
// right, then .env (only when "ENV" is among ConfigArgs), then the process
// environment's TARGET_ORACLE_* variables, each overriding the one before.
// The report is returned even with an error. Every error satisfies
// errors.As(err, new(*Error)); when there are several they are joined.
// A missing user or password is not an error here; see CheckConnection.
func Load(src Sources) (*Config, *Report, error) {
	l := &loader{t: table()}
	var layers []layer
	for _, arg := range src.ConfigArgs {
		if arg != envConfigArg {
			layers = append(layers, l.fileLayer(arg))
		}
	}
	if slices.Contains(src.ConfigArgs, envConfigArg) {
		layers = append(layers, l.dotEnvLayer(filepath.Join(src.WorkDir, ".env"), src.Environ))
	}
	layers = append(layers, l.envLayer("environment", src.Environ))
	if err := l.err(); err != nil {
		return nil, &l.report, err
	}
	final := layer{}
	for _, lay := range layers {
		for name, e := range lay {
			final[name] = e
		}
	}
	c := l.build(final, src.Environ)
	if err := l.err(); err != nil {
		return nil, &l.report, err
	}
	return c, &l.report, nil
}

func (l *loader) err() error {
	if len(l.errs) == 1 {
		return l.errs[0]
	}
	return errors.Join(l.errs...)
}

func (l *loader) fail(e *Error) { l.errs = append(l.errs, e) }

func (l *loader) warn(format string, args ...any) {
	l.report.Warnings = append(l.report.Warnings, fmt.Sprintf(format, args...))
}

func (l *loader) fileLayer(path string) layer {
	data, err := readFileCapped(path)
	if err != nil {
		l.fail(&Error{Source: path, Msg: "cannot read config file", Err: err})
		return nil
	}
	v, err := decodeJSON(data)
	if err != nil {
		l.fail(&Error{Source: path, Msg: err.Error()})
		return nil
	}
	obj, ok := v.(*object)
	if !ok {
		l.fail(&Error{Source: path, Msg: "expected a JSON object at the top level"})
		return nil
	}
	lay := layer{}
	l.addObject(path, lay, obj)
	return lay
}

func (l *loader) addObject(src string, lay layer, obj *object) {
	for _, m := range obj.members {
		if strings.EqualFold(m.key, flextGroup) {
			l.noteFlextShape("a "+flextGroup+" block", src)
			if m.val == nil {
				continue // "TargetOracle": null sets nothing
			}
			group, ok := asObject(m.val)
			if !ok {
				l.fail(&Error{Source: src, Key: m.key, Msg: "expected an object of settings"})
				continue
			}
			l.addObject(src, lay, group)
			continue
		}
		l.add(src, lay, m.key, m.key, m.val)
	}
}

// add checks one key of one source and records it in lay. display is the
// key as the user wrote it (an env var name for the environment).
func (l *loader) add(src string, lay layer, key, display string, raw any) {
	if strings.HasPrefix(strings.ToLower(key), "oracle_") {
		l.noteFlextShape(display, src)
	}
	s, a := lookup(l.t, key)
	if raw == nil && (s != nil || a != nil) {
		// JSON null is "not set", as for the SDK targets, which declare
		// optional settings ["<type>", "null"]: generated configs write
		// "ssh_tunnel": null. The default (or a later source) applies.
		return
	}
	if path, found := repeatedKey(raw); found {
		// A top-level setting given twice with different values is refused
		// (below); so is a key inside one, where the first would win in
		// one setting (stream_overrides, matched in order) and the last in
		// another (table_name_mappings).
		l.fail(&Error{Source: src, Key: display + path, Msg: "the key is given twice with different values"})
		return
	}
	if a != nil && a.name == sdcModeKey {
		l.addSDCMode(src, lay, a, display, raw)
		return
	}
	if s == nil {
		if s, m := lookupMember(l.t, key, display != key); m != nil {
			if raw != nil {
				l.addMember(src, lay, s, m, display, raw)
			}
			return
		}
		l.unknown(src, key, display)
		return
	}
	if s.members != nil {
		l.addMembers(src, lay, s, display, raw)
		return
	}
	v, err := s.checkAlias(l.t, a, raw)
	if err != nil {
		l.fail(&Error{Source: src, Key: display, Msg: err.Error()})
		return
	}
	old := lay[s.name]
	if old == nil {
		lay[s.name] = &entry{key: display, alias: a, raw: raw, value: v, source: src}
		return
	}
	if !reflect.DeepEqual(old.value, v) {
		l.fail(&Error{Source: src, Key: display, Msg: conflictMsg(s, old, display, v)})
	}
}

// addMembers records each key of an object setting's object as its
// member, so that a member given in a later source (an environment
// variable TARGET_ORACLE_SSH_TUNNEL_HOST) overrides that member only.
func (l *loader) addMembers(src string, lay layer, s *setting, display string, raw any) {
	v, err := s.checkKind(raw)
	if err != nil {
		l.fail(&Error{Source: src, Key: display, Msg: err.Error()})
		return
	}
	for _, mb := range v.(*object).members {
		if mb.val == nil {
			continue
		}
		m, err := s.member(mb.key)
		if err != nil {
			l.fail(&Error{Source: src, Key: display + "." + mb.key, Msg: err.Error()})
			continue
		}
		l.addMember(src, lay, s, m, display+"."+mb.key, mb.val)
	}
}

// addMember checks and records one member of an object setting.
func (l *loader) addMember(src string, lay layer, s, m *setting, display string, raw any) {
	v, err := m.checkMember(raw)
	if err != nil {
		l.fail(&Error{Source: src, Key: display, Msg: err.Error()})
		return
	}
	name := memberKey(s, m)
	old := lay[name]
	if old == nil {
		lay[name] = &entry{key: display, raw: raw, value: v, source: src}
		return
	}
	if !reflect.DeepEqual(old.value, v) {
		l.fail(&Error{Source: src, Key: display, Msg: conflictMsg(m, old, display, v)})
	}
}

func conflictMsg(s *setting, old *entry, key string, v any) string {
	what := fmt.Sprintf("%s is given twice with different values", key)
	if old.key != key {
		what = fmt.Sprintf("%s and %s both set %s, with different values", old.key, key, s.name)
	}
	if s.kind == kindSecret {
		return what
	}
	return fmt.Sprintf("%s (%s and %s)", what, show(old.value), show(v))
}

func (l *loader) unknown(src, key, display string) {
	if p, ok := lookupPeer(key); ok {
		l.warn("%s: %s is a %s setting that does not apply to target-oracle and is ignored: %s", src, display, p.peer, p.why)
		return
	}
	near := closest(l.t, key)
	if display != key { // environment variable
		near = envVar(near)
	}
	l.warn("%s: unknown setting %q ignored (closest known setting: %q)", src, display, near)
}

// envVar is the environment variable of a setting, or of a member
// (ssh_tunnel.host: TARGET_ORACLE_SSH_TUNNEL_HOST, as Meltano names it).
func envVar(name string) string {
	return EnvPrefix + strings.ToUpper(strings.ReplaceAll(name, ".", "_"))
}

// envLayer reads the TARGET_ORACLE_* variables of environ ("KEY=value"
// strings). An empty value is not set, as an unset variable, and JSON
// null in a file: docker-compose's "VAR=", CI templates and .env lines
// "KEY=" pass it for a setting left unset, and it must not override a
// file's value (nor fail a non-empty setting such as json_column_name). TARGET_ORACLE__* (a double underscore) are Meltano's
// own variables for the plugin's extras, never settings: they are skipped
// without a warning.
func (l *loader) envLayer(src string, environ []string) layer {
	vars := slices.Clone(environ)
	slices.Sort(vars)
	lay := layer{}
	for _, kv := range vars {
		k, v, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(k, EnvPrefix) || len(k) == len(EnvPrefix) || k[len(EnvPrefix)] == '_' ||
			strings.HasPrefix(k, TestEnvPrefix) || k == CPUProfileEnv {
			continue
		}
		name := strings.ToLower(k[len(EnvPrefix):])
		if v == "" && l.known(name) {
			continue
		}
		l.add(src, lay, name, k, v)
	}
	return lay
}

// known reports whether an environment variable's name (without the
// prefix, lower-cased) is a setting, an alias or a member of one.
func (l *loader) known(name string) bool {
	if s, a := lookup(l.t, name); s != nil || a != nil {
		return true
	}
	_, m := lookupMember(l.t, name, true)
	return m != nil
}

func (l *loader) dotEnvLayer(path string, environ []string) layer {
	data, err := readFileCapped(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		l.fail(&Error{Source: path, Msg: "cannot read .env file", Err: err})
		return nil
	}
	vars, err := parseDotEnv(data, environ)
	if err != nil {
		l.fail(&Error{Source: path, Msg: err.Error()})
		return nil
	}
	return l.envLayer(path, vars)
}

// maxFileBytes caps what is read of a config or .env file. Real ones are
// a few kilobytes; without a cap, --config /dev/zero or a stray huge file
// would be read whole until the process runs out of memory. Tests lower it.
var maxFileBytes int64 = 16 << 20

// readFileCapped reads a regular file of at most maxFileBytes. Devices,
// FIFOs and directories are refused before they are opened: opening a
// FIFO blocks, and reading a device may never end.
func readFileCapped(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, notRegular(fi.Mode())
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Read one byte past the cap to tell "exactly at the cap" from "over".
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > maxFileBytes {
		return nil, fmt.Errorf("the file is larger than the limit of %s", sizeText(maxFileBytes))
	}
	return data, nil
}

func notRegular(m fs.FileMode) error {
	what := "a special file"
	switch {
	case m.IsDir():
		what = "a directory"
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	case m&fs.ModeDevice != 0:
		what = "a device"
	}
	return fmt.Errorf("not a regular file (it is %s)", what)
}

func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// build applies defaults and then the merged settings to a new Config, and
// resolves the settings that depend on others.
func (l *loader) build(final layer, environ []string) *Config {
	c := &Config{}
	for i := range l.t {
		s := &l.t[i]
		if s.def == nil {
			continue
		}
		if err := l.storeDefault(c, s); err != nil {
			l.fail(&Error{Key: s.name, Msg: "internal error: bad default", Err: err})
		}
	}
	for i := range l.t {
		s := &l.t[i]
		if s.members != nil {
			l.buildMembers(c, s, final)
			continue
		}
		e := final[s.name]
		if e == nil {
			continue
		}
		if err := s.store(c, e.value); err != nil {
			l.fail(&Error{Source: e.source, Key: e.key, Msg: "internal error", Err: err})
			continue
		}
		if s.name == "load_method" && combinesSDCMode(final) {
			continue // resolveSDCMode reports it
		}
		l.noteAlias(s, e)
	}
	l.resolveSDCMode(c, final)
	l.reportFlextDefaults(final)
	l.resolveFlattening(c, final)
	l.resolveHistory(c, final)
	l.resolveDSN(c, final)
	if final["tns_admin"] == nil {
		c.TNSAdmin = lookupEnv(environ, "TNS_ADMIN")
		if c.TNSAdmin == "" {
			c.TNSAdmin = c.WalletLocation
		}
	}
	return c
}

// buildMembers assembles an object setting from its members, each taken
// from the last source that gave it, and checks the whole. Nothing given
// leaves the field at its zero value.
func (l *loader) buildMembers(c *Config, s *setting, final layer) {
	obj, src := &object{}, ""
	for i := range s.members {
		m := &s.members[i]
		if e := final[memberKey(s, m)]; e != nil {
			obj.members = append(obj.members, member{m.name, e.raw})
			if src == "" || m.name == "enable" {
				src = e.source
			}
		}
	}
	if len(obj.members) == 0 {
		return
	}
	v, err := s.check(l.t, obj)
	if err == nil {
		err = s.store(c, v)
	}
	if err != nil {
		l.fail(&Error{Source: src, Msg: err.Error()})
	}
}

func (l *loader) storeDefault(c *Config, s *setting) error {
	b, err := json.Marshal(s.def)
	if err != nil {
		return err
	}
	raw, err := decodeJSON(b)
	if err != nil {
		return err
	}
	v, err := s.check(l.t, raw)
	if err != nil {
		return err
	}
	return s.store(c, v)
}

// noteAlias records the effective value of a setting given through an
// alias, or through a peer spelling of one of its values.
func (l *loader) noteAlias(s *setting, e *entry) {
	if s.name == "dsn" && e.alias != nil {
		return // resolveDSN reports what a sqlalchemy_url set
	}
	if e.alias == nil {
		rawText, ok := text(e.raw)
		if s.kind != kindEnum || !ok || strings.EqualFold(rawText, e.value.(string)) {
			return
		}
	}
	given, val := "", redacted
	if s.kind != kindSecret {
		given, val = " = "+show(e.raw), show(e.value)
	}
	l.report.Effective = append(l.report.Effective,
		fmt.Sprintf("%s = %s (given as %s%s in %s)", s.name, val, e.key, given, e.source))
}

func (l *loader) resolveFlattening(c *Config, final layer) {
	if !c.FlatteningEnabled {
		return
	}
	e := final["flattening_enabled"]
	sm := final["storage_mode"]
	switch {
	case sm == nil:
		c.StorageMode = StorageFlattened
		l.report.Effective = append(l.report.Effective,
			fmt.Sprintf("storage_mode = \"flattened\" (given as flattening_enabled = true in %s)", e.source))
	case c.StorageMode == StorageJSON:
		l.fail(&Error{Source: sm.source, Key: sm.key, Msg: fmt.Sprintf(
			"storage_mode \"json\" conflicts with flattening_enabled true (from %s); remove one", e.source)})
	case c.StorageMode == StorageHybrid:
		l.warn("%s: flattening_enabled true is overridden by storage_mode \"hybrid\" (from %s)", e.source, sm.source)
	}
}

func lookupEnv(environ []string, key string) string {
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v
		}
	}
	return ""
}

// store puts v, as returned by check, into the setting's Config field.
func (s *setting) store(c *Config, v any) error {
	switch p := s.field(c).(type) {
	case *string:
		return assign(p, v)
	case *Secret:
		var str string
		err := assign(&str, v)
		*p = Secret(str)
		return err
	case *int:
		var n int64
		err := assign(&n, v)
		*p = int(n)
		return err
	case *int64:
		return assign(p, v)
	case *float64:
		return assign(p, v)
	case *bool:
		return assign(p, v)
	case **bool: // a boolean whose absence means something (ssl_server_dn_match)
		var b bool
		err := assign(&b, v)
		*p = &b
		return err
	case *[]string:
		return assign(p, v)
	case *map[string]any:
		obj, ok := v.(*object)
		if !ok {
			return fmt.Errorf("%s: want an object, have %T", s.name, v)
		}
		*p = plain(obj).(map[string]any)
		return nil
	case *map[string]string:
		return assign(p, v)
	case *map[string]map[string]string:
		return assign(p, v)
	case *map[string][]string:
		return assign(p, v)
	case *map[string][]CustomIndex:
		return assign(p, v)
	case *[]StreamOverride:
		return assign(p, v)
	case *SSHTunnel:
		return assign(p, v)
	case *Partitioning:
		return assign(p, v)
	default:
		return fmt.Errorf("%s: field type %T not handled", s.name, p)
	}
}

func assign[T any](p *T, v any) error {
	t, ok := v.(T)
	if !ok {
		return fmt.Errorf("want %T, have %T", *p, v)
	}
	*p = t
	return nil
}
