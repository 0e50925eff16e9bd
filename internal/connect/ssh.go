package connect

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/target-oracle/target-oracle/internal/config"
)

// tunnel is the SSH connection to a bastion through which every database
// address is dialled. One per process and settings (tunnelFor), shared
// by all sessions, and dialled again when it is lost.
type tunnel struct {
	st   config.SSHTunnel
	addr string // bastion host:port
	auth []ssh.AuthMethod
	keys ssh.HostKeyCallback
	pin  string // what pins the host key, for messages and --check

	mu     sync.Mutex
	client *ssh.Client
	hostFP string // the bastion's key, once seen
}

var (
	tunnelsMu sync.Mutex
	tunnels   = map[[32]byte]*tunnel{}
)

// tunnelFor returns the process's tunnel for st, reading its key files
// once. nil when the tunnel is not enabled.
func tunnelFor(st config.SSHTunnel) (*tunnel, error) {
	if !st.Enable {
		return nil, nil
	}
	b, _ := json.Marshal(st) // secrets marshal redacted: add them to the key by hash
	h := sha256.New()
	h.Write(b)
	for _, s := range []config.Secret{st.PrivateKey, st.PrivateKeyPassword, st.Password} {
		h.Write([]byte{0})
		h.Write([]byte(s.Reveal()))
	}
	var key [32]byte
	h.Sum(key[:0])
	tunnelsMu.Lock()
	defer tunnelsMu.Unlock()
	if t := tunnels[key]; t != nil {
		return t, nil
	}
	t, err := newTunnel(st)
	if err != nil {
		return nil, err
	}
	tunnels[key] = t
	return t, nil
}

func newTunnel(st config.SSHTunnel) (*tunnel, error) {
	t := &tunnel{st: st, addr: net.JoinHostPort(st.Host, strconv.Itoa(st.Port))}
	if st.PrivateKey != "" {
		signer, err := readPrivateKey(st.PrivateKey.Reveal(), st.PrivateKeyPassword.Reveal())
		if err != nil {
			return nil, err
		}
		t.auth = append(t.auth, ssh.PublicKeys(signer))
	}
	if st.Password != "" {
		pw := st.Password.Reveal()
		t.auth = append(t.auth, ssh.Password(pw),
			ssh.KeyboardInteractive(func(_, _ string, qs []string, _ []bool) ([]string, error) {
				out := make([]string, len(qs))
				for i := range out {
					out[i] = pw
				}
				return out, nil
			}))
	}
	var err error
	if t.keys, t.pin, err = hostKeyCheck(st); err != nil {
		return nil, err
	}
	return t, nil
}

// readPrivateKey reads private_key as PEM text, else as a file path.
// Errors never quote the value.
func readPrivateKey(v, pass string) (ssh.Signer, error) {
	pem := []byte(v)
	if !strings.Contains(v, "-----BEGIN") {
		b, err := os.ReadFile(expandHome(strings.TrimSpace(v)))
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return nil, fmt.Errorf("ssh_tunnel.private_key is neither PEM text (-----BEGIN …) nor a readable file: %v", err)
		}
		pem = b
	}
	var signer ssh.Signer
	var err error
	if pass != "" {
		signer, err = ssh.ParsePrivateKeyWithPassphrase(pem, []byte(pass))
	} else {
		signer, err = ssh.ParsePrivateKey(pem)
	}
	var missing *ssh.PassphraseMissingError
	switch {
	case errors.As(err, &missing):
		return nil, errors.New("ssh_tunnel.private_key is encrypted: set ssh_tunnel.private_key_password")
	case errors.Is(err, errX509IncorrectPassword) || (err != nil && strings.Contains(err.Error(), "decryption password incorrect")):
		return nil, errors.New("ssh_tunnel.private_key_password does not decrypt ssh_tunnel.private_key")
	case err != nil:
		return nil, fmt.Errorf("ssh_tunnel.private_key: not a private key SSH can read: %v", err)
	}
	return signer, nil
}

var errX509IncorrectPassword = errors.New("x509: decryption password incorrect")

func expandHome(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if h, err := os.UserHomeDir(); err == nil {
			return filepath.Join(h, p[1:])
		}
	}
	return p
}

// hostKeyCheck pins the bastion's key by host_key, else by known_hosts.
// An unknown key is never accepted.
func hostKeyCheck(st config.SSHTunnel) (ssh.HostKeyCallback, string, error) {
	if hk := strings.TrimSpace(st.HostKey); hk != "" {
		if strings.HasPrefix(hk, "SHA256:") {
			return func(host string, _ net.Addr, key ssh.PublicKey) error {
				if ssh.FingerprintSHA256(key) == hk {
					return nil
				}
				return unknownHostKey(host, key, "it does not match ssh_tunnel.host_key "+hk)
			}, "ssh_tunnel.host_key", nil
		}
		want, _, _, _, err := ssh.ParseAuthorizedKey([]byte(hk))
		if err != nil {
			return nil, "", fmt.Errorf("ssh_tunnel.host_key: expected a SHA256:… fingerprint or an authorized_keys line "+
				"(ssh-ed25519 AAAA…): %v", err)
		}
		return func(host string, _ net.Addr, key ssh.PublicKey) error {
			if bytes.Equal(key.Marshal(), want.Marshal()) {
				return nil
			}
			return unknownHostKey(host, key, "it does not match ssh_tunnel.host_key ("+want.Type()+" "+ssh.FingerprintSHA256(want)+")")
		}, "ssh_tunnel.host_key", nil
	}
	path := st.KnownHosts
	if path == "" {
		path = "~/.ssh/known_hosts"
	}
	file := expandHome(path)
	cb, err := knownhosts.New(file)
	if errors.Is(err, fs.ErrNotExist) {
		return func(host string, _ net.Addr, key ssh.PublicKey) error {
			return unknownHostKey(host, key, "ssh_tunnel.known_hosts "+file+" does not exist")
		}, "ssh_tunnel.known_hosts " + file, nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("ssh_tunnel.known_hosts: %v", err)
	}
	return func(host string, remote net.Addr, key ssh.PublicKey) error {
		err := cb(host, remote, key)
		var ke *knownhosts.KeyError
		switch {
		case errors.As(err, &ke) && len(ke.Want) == 0:
			return unknownHostKey(host, key, "it is not in ssh_tunnel.known_hosts "+file)
		case errors.As(err, &ke):
			return unknownHostKey(host, key, fmt.Sprintf("it differs from the key in %s line %d (%s): the host key "+
				"changed, or this is not the bastion", ke.Want[0].Filename, ke.Want[0].Line, ssh.FingerprintSHA256(ke.Want[0].Key)))
		}
		return err
	}, "ssh_tunnel.known_hosts " + file, nil
}

// hostKeyError is a bastion key that nothing pins: a configuration
// problem, never retried.
type hostKeyError struct{ msg string }

func (e *hostKeyError) Error() string { return e.msg }

func unknownHostKey(host string, key ssh.PublicKey, why string) error {
	fp := ssh.FingerprintSHA256(key)
	return &hostKeyError{fmt.Sprintf("ssh_tunnel: the host key of %s is %s %s and %s; it is never accepted unchecked. "+
		"Check that fingerprint with the bastion's administrator (ssh-keygen -lf /etc/ssh/ssh_host_*_key.pub), then pin it "+
		"with ssh_tunnel.host_key: %q, or add the host to ssh_tunnel.known_hosts (ssh-keyscan -p %s %s)",
		host, key.Type(), fp, why, fp, portOf(host), hostOf(host))}
}

func hostOf(hp string) string { h, _, _ := net.SplitHostPort(hp); return h }
func portOf(hp string) string { _, p, _ := net.SplitHostPort(hp); return p }

// tunnelError is a failure of the SSH connection itself (the bastion is
// unreachable, or the connection was lost): transient, as a dropped
// database connection is.
type tunnelError struct {
	addr string
	err  error
}

func (e *tunnelError) Error() string {
	return fmt.Sprintf("ssh tunnel to %s: %v", e.addr, e.err)
}
func (e *tunnelError) Timeout() bool   { return false }
func (e *tunnelError) Temporary() bool { return true }

var _ net.Error = (*tunnelError)(nil)

// connect returns the SSH client, dialling the bastion when there is none
// (or it was lost). ctx bounds the TCP connect and the SSH handshake.
func (t *tunnel) connect(ctx context.Context) (*ssh.Client, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.client != nil {
		return t.client, nil
	}
	var d net.Dialer
	raw, err := d.DialContext(ctx, "tcp", t.addr)
	if err != nil {
		return nil, &tunnelError{addr: t.addr, err: err}
	}
	stop := context.AfterFunc(ctx, func() { raw.Close() }) // a stalled handshake ends with ctx
	var fp string
	cfg := &ssh.ClientConfig{User: t.st.Username, Auth: t.auth,
		HostKeyCallback: func(host string, remote net.Addr, key ssh.PublicKey) error {
			fp = key.Type() + " " + ssh.FingerprintSHA256(key)
			return t.keys(host, remote, key)
		}}
	c, chans, reqs, err := ssh.NewClientConn(raw, t.addr, cfg)
	if !stop() {
		if err == nil {
			c.Close()
		}
		raw.Close()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	if err != nil {
		raw.Close()
		var he *hostKeyError
		if errors.As(err, &he) {
			return nil, he
		}
		if strings.Contains(err.Error(), "unable to authenticate") {
			return nil, fmt.Errorf("ssh_tunnel: %s refused user %s: %v", t.addr, t.st.Username, err)
		}
		return nil, &tunnelError{addr: t.addr, err: err}
	}
	client := ssh.NewClient(c, chans, reqs)
	t.client, t.hostFP = client, fp
	go func() {
		client.Wait()
		t.mu.Lock()
		if t.client == client {
			t.client = nil
		}
		t.mu.Unlock()
	}()
	return client, nil
}

// dial opens a channel to address through the bastion. A client that
// turns out to be dead is dropped and dialled once more.
func (t *tunnel) dial(ctx context.Context, address string) (net.Conn, error) {
	for try := 0; ; try++ {
		client, err := t.connect(ctx)
		if err != nil {
			return nil, err
		}
		conn, err := client.DialContext(ctx, "tcp", address)
		if err == nil {
			return withDeadlines(conn), nil
		}
		var oe *ssh.OpenChannelError
		if errors.As(err, &oe) || ctx.Err() != nil {
			// The bastion is up but cannot reach the address: as a refused TCP connect.
			return nil, fmt.Errorf("ssh tunnel %s could not reach %s: %w", t.addr, address, err)
		}
		t.drop(client)
		if try > 0 {
			return nil, &tunnelError{addr: t.addr, err: err}
		}
	}
}

func (t *tunnel) drop(c *ssh.Client) {
	t.mu.Lock()
	if t.client == c {
		t.client = nil
	}
	t.mu.Unlock()
	c.Close()
}

// describe is the --check line: the bastion, its key and what pins it.
func (t *tunnel) describe() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return fmt.Sprintf("through SSH bastion %s@%s, host key %s pinned by %s",
		t.st.Username, t.addr, orUnknown(t.hostFP), t.pin)
}

// withDeadlines gives an SSH channel the deadlines go-ora sets on every
// packet (an SSH channel has none): go-ora talks to one end of a
// synchronous pipe, copied to and from the channel. Closing either side
// closes both.
func withDeadlines(ch net.Conn) net.Conn {
	a, b := net.Pipe()
	go func() { io.Copy(b, ch); b.Close() }()
	go func() { io.Copy(ch, b); ch.Close() }()
	return a
}
