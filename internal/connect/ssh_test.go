package connect

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/target-oracle/target-oracle/internal/config"
)

// sshServer is an SSH bastion on 127.0.0.1 that forwards direct-tcpip
// channels to the address asked for. It accepts the client key or the
// password given.
type sshServer struct {
	addr    string
	hostKey ssh.Signer
	mu      sync.Mutex
	conns   []net.Conn
	forward int // channels opened
	ln      net.Listener
}

func newSSHServer(t *testing.T, clientKey ssh.PublicKey, password string) *sshServer {
	t.Helper()
	_, hk, _ := ed25519.GenerateKey(rand.Reader)
	hostKey, err := ssh.NewSignerFromKey(hk)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &ssh.ServerConfig{
		PublicKeyCallback: func(_ ssh.ConnMetadata, k ssh.PublicKey) (*ssh.Permissions, error) {
			if clientKey != nil && string(k.Marshal()) == string(clientKey.Marshal()) {
				return nil, nil
			}
			return nil, errors.New("key refused")
		},
		PasswordCallback: func(_ ssh.ConnMetadata, p []byte) (*ssh.Permissions, error) {
			if password != "" && string(p) == password {
				return nil, nil
			}
			return nil, errors.New("password refused")
		},
	}
	cfg.AddHostKey(hostKey)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip("no loopback listener:", err)
	}
	s := &sshServer{addr: ln.Addr().String(), hostKey: hostKey, ln: ln}
	t.Cleanup(func() { ln.Close(); s.dropAll() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns = append(s.conns, c)
			s.mu.Unlock()
			go s.serve(c, cfg)
		}
	}()
	return s
}

func (s *sshServer) serve(c net.Conn, cfg *ssh.ServerConfig) {
	_, chans, reqs, err := ssh.NewServerConn(c, cfg)
	if err != nil {
		c.Close()
		return
	}
	go ssh.DiscardRequests(reqs)
	for nc := range chans {
		if nc.ChannelType() != "direct-tcpip" {
			nc.Reject(ssh.UnknownChannelType, "no")
			continue
		}
		var p struct {
			Host     string
			Port     uint32
			OrigHost string
			OrigPort uint32
		}
		if err := ssh.Unmarshal(nc.ExtraData(), &p); err != nil {
			nc.Reject(ssh.ConnectionFailed, err.Error())
			continue
		}
		up, err := net.Dial("tcp", net.JoinHostPort(p.Host, strconv.Itoa(int(p.Port))))
		if err != nil {
			nc.Reject(ssh.ConnectionFailed, err.Error())
			continue
		}
		ch, creqs, err := nc.Accept()
		if err != nil {
			up.Close()
			continue
		}
		s.mu.Lock()
		s.forward++
		s.mu.Unlock()
		go ssh.DiscardRequests(creqs)
		go func() { io.Copy(ch, up); ch.Close() }()
		go func() { io.Copy(up, ch); up.Close() }()
	}
}

// dropAll cuts every SSH connection, as a bastion restart would.
func (s *sshServer) dropAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.conns {
		c.Close()
	}
	s.conns = nil
}

func (s *sshServer) forwards() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.forward
}

func (s *sshServer) fingerprint() string { return ssh.FingerprintSHA256(s.hostKey.PublicKey()) }

func clientKey(t *testing.T, passphrase string) (pemText string, pub ssh.PublicKey) {
	t.Helper()
	_, k, _ := ed25519.GenerateKey(rand.Reader)
	var blk *pem.Block
	var err error
	if passphrase != "" {
		blk, err = ssh.MarshalPrivateKeyWithPassphrase(k, "", []byte(passphrase))
	} else {
		blk, err = ssh.MarshalPrivateKey(k, "")
	}
	if err != nil {
		t.Fatal(err)
	}
	signer, _ := ssh.NewSignerFromKey(k)
	return string(pem.EncodeToMemory(blk)), signer.PublicKey()
}

// tunnelConfig connects to a listener refusing with ORA-12514 behind the
// bastion: the refusal proves the TNS bytes went through the tunnel.
func tunnelConfig(t *testing.T, s *sshServer, st config.SSHTunnel) *config.Config {
	addr := refusingListener(t, 12514)
	host, port, _ := net.SplitHostPort(addr)
	cfg := baseConfig()
	cfg.Host, cfg.Port, cfg.ServiceName, cfg.ConnectTimeoutSeconds = host, atoi(port), "NOPE", 5
	bh, bp, _ := net.SplitHostPort(s.addr)
	st.Enable, st.Host, st.Port, st.Username = true, bh, atoi(bp), "bastion"
	cfg.SSHTunnel = st
	return cfg
}

func openErr(t *testing.T, cfg *config.Config) error {
	t.Helper()
	_, err := within(t, 30*time.Second, func() error {
		db, err := Open(context.Background(), cfg)
		if err == nil {
			db.Close()
		}
		return err
	})
	return err
}

func TestSSHTunnelReachesTheListener(t *testing.T) {
	keyPEM, pub := clientKey(t, "")
	encPEM, encPub := clientKey(t, "kp-secret-1")
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "id_ed25519")
	os.WriteFile(keyFile, []byte(keyPEM), 0o600)
	tests := []struct {
		name string
		pub  ssh.PublicKey
		st   func(s *sshServer) config.SSHTunnel
	}{
		{"key as PEM text, host_key fingerprint", pub, func(s *sshServer) config.SSHTunnel {
			return config.SSHTunnel{PrivateKey: config.Secret(keyPEM), HostKey: s.fingerprint()}
		}},
		{"key as a path, host_key authorized_keys line", pub, func(s *sshServer) config.SSHTunnel {
			return config.SSHTunnel{PrivateKey: config.Secret(keyFile), HostKey: string(ssh.MarshalAuthorizedKey(s.hostKey.PublicKey()))}
		}},
		{"encrypted key", encPub, func(s *sshServer) config.SSHTunnel {
			return config.SSHTunnel{PrivateKey: config.Secret(encPEM), PrivateKeyPassword: "kp-secret-1", HostKey: s.fingerprint()}
		}},
		{"password, known_hosts", nil, func(s *sshServer) config.SSHTunnel {
			kh := filepath.Join(t.TempDir(), "known_hosts")
			line := "[127.0.0.1]:" + portOf(s.addr) + " " + string(ssh.MarshalAuthorizedKey(s.hostKey.PublicKey()))
			os.WriteFile(kh, []byte(line), 0o600)
			return config.SSHTunnel{Password: "pw-secret-2", KnownHosts: kh}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSSHServer(t, tt.pub, "pw-secret-2")
			cfg := tunnelConfig(t, s, tt.st(s))
			err := openErr(t, cfg)
			if Code(err) != 12514 {
				t.Fatalf("want ORA-12514 from the listener behind the bastion, got %v", err)
			}
			if s.forwards() == 0 {
				t.Error("the connection did not go through the bastion")
			}
			rep := Evaluate(cfg, Facts{}, Access{})
			found := false
			for _, it := range rep.Items {
				if it.Topic == "tunnel" && strings.Contains(it.Detail, s.fingerprint()) && strings.Contains(it.Detail, s.addr) {
					found = true
				}
			}
			if !found {
				t.Errorf("--check items lack the tunnel: %+v", rep.Items)
			}
		})
	}
}

func TestSSHTunnelRefusesUnknownHostKeys(t *testing.T) {
	keyPEM, pub := clientKey(t, "")
	other, _ := clientKey(t, "")
	otherSigner, _ := ssh.ParsePrivateKey([]byte(other))
	tests := []struct {
		name string
		st   func(s *sshServer) config.SSHTunnel
		want string
	}{
		{"empty known_hosts", func(s *sshServer) config.SSHTunnel {
			kh := filepath.Join(t.TempDir(), "known_hosts")
			os.WriteFile(kh, nil, 0o600)
			return config.SSHTunnel{PrivateKey: config.Secret(keyPEM), KnownHosts: kh}
		}, "is not in ssh_tunnel.known_hosts"},
		{"missing known_hosts", func(s *sshServer) config.SSHTunnel {
			return config.SSHTunnel{PrivateKey: config.Secret(keyPEM), KnownHosts: filepath.Join(t.TempDir(), "none")}
		}, "does not exist"},
		{"wrong fingerprint", func(s *sshServer) config.SSHTunnel {
			return config.SSHTunnel{PrivateKey: config.Secret(keyPEM), HostKey: ssh.FingerprintSHA256(otherSigner.PublicKey())}
		}, "does not match ssh_tunnel.host_key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSSHServer(t, pub, "")
			err := openErr(t, tunnelConfig(t, s, tt.st(s)))
			if err == nil {
				t.Fatal("connected through a bastion whose key nothing pins")
			}
			for _, w := range []string{tt.want, s.fingerprint(), `ssh_tunnel.host_key: "` + s.fingerprint() + `"`} {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "OPENSSH PRIVATE") {
				t.Errorf("error shows the key: %v", err)
			}
			var ne net.Error
			if errors.As(err, &ne) {
				t.Errorf("an unknown host key is a net.Error (would be retried): %v", err)
			}
			if s.forwards() != 0 {
				t.Error("a channel was opened through an unverified bastion")
			}
		})
	}
}

func TestSSHTunnelAuthErrorsAreRedacted(t *testing.T) {
	encPEM, encPub := clientKey(t, "kp-secret-3")
	s := newSSHServer(t, encPub, "")
	for _, tc := range []struct {
		st   config.SSHTunnel
		want string
	}{
		{config.SSHTunnel{PrivateKey: config.Secret(encPEM)}, "set ssh_tunnel.private_key_password"},
		{config.SSHTunnel{PrivateKey: config.Secret(encPEM), PrivateKeyPassword: "wrong-pass-4"}, "does not decrypt"},
		{config.SSHTunnel{Password: "pw-secret-5", HostKey: s.fingerprint()}, "refused user bastion"},
		{config.SSHTunnel{PrivateKey: "/no/such/key"}, "neither PEM text"},
	} {
		err := openErr(t, tunnelConfig(t, s, tc.st))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want %q", err, tc.want)
			continue
		}
		for _, secret := range []string{"kp-secret-3", "wrong-pass-4", "pw-secret-5", "OPENSSH PRIVATE"} {
			if strings.Contains(err.Error(), secret) {
				t.Errorf("error shows %q: %v", secret, err)
			}
		}
	}
}

// A bastion that drops every SSH connection mid-run: a session dialled
// while the tunnel is down fails with a transient net.Error, and the next
// one dials the bastion again.
func TestSSHTunnelDroppedIsTransientAndRedialled(t *testing.T) {
	keyPEM, pub := clientKey(t, "")
	s := newSSHServer(t, pub, "")
	cfg := tunnelConfig(t, s, config.SSHTunnel{PrivateKey: config.Secret(keyPEM)})
	cfg.SSHTunnel.HostKey = s.fingerprint()
	if err := openErr(t, cfg); Code(err) != 12514 {
		t.Fatalf("first connect: %v", err)
	}
	tun, err := tunnelFor(cfg.SSHTunnel)
	if err != nil {
		t.Fatal(err)
	}
	s.dropAll()
	tun.mu.Lock()
	c := tun.client
	tun.mu.Unlock()
	if c != nil {
		c.Wait() // the client sees the drop
	}
	if err := openErr(t, cfg); Code(err) != 12514 {
		t.Fatalf("after the drop, the tunnel was not dialled again: %v", err)
	}
	if got := s.forwards(); got != 2 {
		t.Errorf("%d channels forwarded, want 2", got)
	}
	// The bastion is gone altogether: a transient connection error, as
	// the loader's classifier sees it (a net.Error, not a context end).
	s.ln.Close()
	s.dropAll()
	tun.mu.Lock()
	c = tun.client
	tun.mu.Unlock()
	if c != nil {
		c.Wait()
	}
	err = openErr(t, cfg)
	var ne net.Error
	if err == nil || !errors.As(err, &ne) || errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "ssh tunnel to "+s.addr) {
		t.Fatalf("with the bastion gone: %v, want a transient ssh tunnel net.Error", err)
	}
}

// A bastion that accepts TCP and never speaks SSH: the connect timeout
// bounds the handshake.
func TestSSHTunnelHandshakeBoundedByConnectTimeout(t *testing.T) {
	keyPEM, _ := clientKey(t, "")
	silent := silentListener(t)
	cfg := baseConfig()
	cfg.Host, cfg.Port, cfg.ServiceName, cfg.ConnectTimeoutSeconds = "127.0.0.1", 1521, "X", 1
	h, p, _ := net.SplitHostPort(silent)
	cfg.SSHTunnel = config.SSHTunnel{Enable: true, Host: h, Port: atoi(p), Username: "u", PrivateKey: config.Secret(keyPEM), HostKey: "SHA256:x"}
	took, err := within(t, 20*time.Second, func() error { return openErr(t, cfg) })
	if err == nil || !strings.Contains(err.Error(), "timed out after 1s") {
		t.Fatalf("got %v", err)
	}
	if took > 10*time.Second {
		t.Errorf("took %s", took)
	}
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Errorf("not a net.Error timeout: %v", err)
	}
}
