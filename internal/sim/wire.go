package sim

import (
	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
)

// wireDial, when set (by a test: wire_test.go), gives the Oracle engine of
// fake-Oracle trials its sessions: the wire peer's route, where go-ora
// v2.9.0 talks TNS/TTC to internal/wirepeer and the peer hands every call
// to srv. The fault points of a trial are the fake's, so each then fires
// behind a real driver call on the wire (a lost connection is a hang-up,
// a transient error an ORA reply). stop ends the route when the engine
// goes (a restart). Nil: the engine calls the fake directly.
var wireDial func(srv *fake.DB) (dial oracle.Dialer, stop func())

// fakeDial is the dialer of a fake-Oracle trial's engine and what ends it.
func fakeDial(srv *fake.DB) (oracle.Dialer, func()) {
	if wireDial != nil {
		return wireDial(srv)
	}
	return srv.Dial, func() {}
}
