package connect

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// netTimeouts are the Oracle Net timeouts a dsn itself gives, in a
// (DESCRIPTION=…) descriptor (a tnsnames.ora entry included) or as Easy
// Connect parameters. go-ora v2.9.0 reads none of them from there: it
// finds only the addresses, SERVICE_NAME, SID and INSTANCE_NAME in a
// descriptor (configurations/database_info.go:97-145), and its own
// CONNECT TIMEOUT is a URL option that bounds only the TCP dial of its
// default dialer, which the target replaces (dial.go). So the target
// applies them:
//
//   - CONNECT_TIMEOUT bounds, as in Oracle Net, each address's whole
//     connection (TCP, TLS, TNS, login): the attempt's bound is it times
//     the number of addresses, in place of connect_timeout_seconds (the
//     dsn is more specific, as a URL's CONNECT TIMEOUT option is); it
//     also bounds each address's TCP connect, so that a dead first
//     address leaves time for the next one.
//   - TRANSPORT_CONNECT_TIMEOUT bounds each address's TCP connect.
//
// RETRY_COUNT and RETRY_DELAY are not honoured (one pass over the
// addresses) and are warned about.
type netTimeouts struct {
	connect, transport time.Duration
	connectFrom        string // "the descriptor's CONNECT_TIMEOUT", for messages
	addresses          int    // addresses in the descriptor (1 for Easy Connect)
}

// attempt is the bound of a whole connection attempt, 0 when the dsn
// gives no CONNECT_TIMEOUT.
func (n netTimeouts) attempt() time.Duration {
	return n.connect * time.Duration(max(n.addresses, 1))
}

// dial is the bound of each address's TCP connect, 0 for none of its own.
func (n netTimeouts) dial() time.Duration {
	if n.transport > 0 {
		return n.transport
	}
	return n.connect
}

// netTimeoutNames are the parameters read, and those warned about.
var (
	netTimeoutNames = []string{"CONNECT_TIMEOUT", "TRANSPORT_CONNECT_TIMEOUT"}
	netRetryNames   = []string{"RETRY_COUNT", "RETRY_DELAY"}
)

func isNetTimeout(name string) bool {
	for _, n := range append(netTimeoutNames, netRetryNames...) {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}

// readNetTimeouts reads the timeouts through value (the descriptor's or
// the Easy Connect string's parameter of that name); where says which
// ("the descriptor's "). A value it cannot read, and a retry parameter,
// is warned about, naming the setting that applies instead.
func (t *target) readNetTimeouts(where string, value func(string) (string, bool)) {
	for _, name := range netTimeoutNames {
		v, ok := value(name)
		if !ok {
			continue
		}
		d, err := parseNetDuration(v)
		if err != nil {
			t.warnings = append(t.warnings, fmt.Sprintf("%s%s=%s is ignored: %v; connect_timeout_seconds applies", where, name, v, err))
			continue
		}
		if name == "CONNECT_TIMEOUT" {
			t.netTimeouts.connect, t.netTimeouts.connectFrom = d, where+name
		} else {
			t.netTimeouts.transport = d
		}
	}
	for _, name := range netRetryNames {
		if v, ok := value(name); ok {
			t.warnings = append(t.warnings, fmt.Sprintf("%s%s=%s is not honoured: go-ora v2.9.0 makes one pass over the addresses "+
				"per connection (bounded by CONNECT_TIMEOUT, else connect_timeout_seconds); a load retries transient "+
				"connection errors on a fresh session itself", where, name, v))
		}
	}
}

// parseNetDuration reads an Oracle Net timeout: seconds ("10"), or with
// a unit, "10 sec" or "500 ms" (Oracle Database 19c and later).
func parseNetDuration(v string) (time.Duration, error) {
	s := strings.ToLower(strings.TrimSpace(v))
	unit := time.Second
	for _, u := range []struct {
		suffix string
		d      time.Duration
	}{{"ms", time.Millisecond}, {"sec", time.Second}, {"min", time.Minute}} {
		if strings.HasSuffix(s, u.suffix) {
			s, unit = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.d
			break
		}
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil || !(n > 0) || n > 1e6 {
		return 0, fmt.Errorf("expected a positive number of seconds (or \"N ms\")")
	}
	return time.Duration(n * float64(unit)), nil
}
