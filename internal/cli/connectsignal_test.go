package cli

import (
	"net"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// blackhole is a listener that accepts connections and never answers,
// as a firewall that drops packets after the handshake or a wrong port
// on a busy host does.
func blackhole(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var held []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	})
	return ln.Addr().String()
}

// TestSignalWhileConnecting: SIGTERM (an orchestrator cancelling the task)
// or Ctrl-C while the target is still connecting to a server that never
// answers ends the run at once with 128+N (SPEC §2, §7 rule 5), in a load,
// --plan, --check, --verify and --benchmark, instead of being ignored
// until connect_timeout_seconds passes and then exiting 1. Nothing
// reaches stdout.
func TestSignalWhileConnecting(t *testing.T) {
	host, port, _ := net.SplitHostPort(blackhole(t))
	conn := `"host":"` + host + `","port":` + port + `,"service_name":"X","user":"u","password":"p","connect_timeout_seconds":8`
	in := writeFile(t, "in.singer", example)
	// With TCPS the wait is in the TLS handshake, which go-ora does not
	// end when its context does: the attempt's sockets are closed.
	for _, mode := range [][]string{{"--input", in}, {"--plan", "--input", in}, {"--check"}, {"--verify"}, {"--benchmark"}, {"tcps", "--check"}} {
		cfg := writeFile(t, "c.json", "{"+conn+"}")
		if mode[0] == "tcps" {
			cfg, mode = writeFile(t, "c.json", "{"+conn+`,"protocol":"tcps"}`), mode[1:]
		}
		sigs := make(chan os.Signal, 1)
		go func() {
			time.Sleep(300 * time.Millisecond)
			sigs <- syscall.SIGTERM
		}()
		var out, errb strings.Builder
		start := time.Now()
		code := Main(append([]string{"--config", cfg}, mode...), IO{Stdin: strings.NewReader(""), State: &out, Stderr: &errb, Dir: t.TempDir(), Signals: sigs})
		took := time.Since(start)
		if code != 128+15 || took > 5*time.Second || out.Len() != 0 || !strings.Contains(errb.String(), "stopped by signal terminated while connecting") {
			t.Errorf("%v: exit %d after %s (want 143 at once), stdout %q, stderr:\n%s", mode, code, took.Round(time.Millisecond), out.String(), errb.String())
		}
	}
}
