package sim

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// subprocess runs the trial's first run as an orchestrator would: the
// binary on a persistent store (TARGET_ORACLE_TEST_STORE), killed with
// SIGKILL at a chosen engine call or state write (TARGET_ORACLE_TEST_FAULT),
// or sent SIGTERM once it has written the K-th state; each state it wrote is
// then checked against the store it left. The runs after it resume in
// process on that store (the embedded engine opens it as a new process
// would): one process start per trial keeps the trial within SPEC §12's
// 0.2 s, and crashes during a resume are the in-process trials' part.
func (t *trial) subprocess() {
	store := filepath.Join(t.opts.Dir, "store.json")
	const i = 0
	plan := t.choose(i)
	in, idx := t.resume(-1)
	t.countSent(idx)
	snaps := t.runSnaps(-1, nil)
	states, code, stderr, err := t.exec(store, in, plan)
	log := RunLog{From: -1, Plan: plan, States: states, Err: fmt.Sprintf("exit %d", code)}
	if err != nil {
		log.Err = err.Error()
	}
	t.res.Runs = append(t.res.Runs, log)
	if err != nil {
		t.res.failf("run %d: %v", i, err)
		return
	}
	db, oerr := newMemDB(store)
	if oerr != nil {
		t.res.failf("run %d: the store does not open after exit %d: %v", i, code, oerr)
		return
	}
	for _, pos := range states {
		where := fmt.Sprintf("run %d (exit %d), state %d, store after the run", i, code, pos)
		t.checkState(db, snaps, -1, pos, where)
		t.checkHeld(-1, pos, where)
	}
	t.checkOrder(i, -1, idx, states)
	from := -1
	if len(states) > 0 {
		from = states[len(states)-1]
	}
	if t.sc.Fail >= 0 {
		var e error
		if code != 0 {
			e = errors.New("exit " + strconv.Itoa(code))
		}
		t.checkFailure(i, e, states)
		return
	}
	want := 0
	if plan != nil {
		switch plan.Action {
		case Crash, CrashAfter:
			want = 137
		case Fault:
			want = 1
		case Term:
			want = 143
		}
	}
	switch {
	case code == 0:
		t.checkEnd(i, idx, states)
		t.checkFinal(db, from)
		return
	case code != want && !(want == 0 && plan != nil):
		t.res.failf("run %d (plan %s): exit %d, want %d: %s", i, plan, code, want, lastLines(stderr, 3))
		return
	}
	t.runInProcess(db, i+1, from)
}

// exec runs the binary once and returns the state positions it wrote.
func (t *trial) exec(store, in string, plan *Point) ([]int, int, string, error) {
	cmd := exec.Command(t.opts.Binary, "--dry-run", "--config", t.cfgArg)
	cmd.Env = []string{"TARGET_ORACLE_TEST_STORE=" + store, "TARGET_ORACLE_TEST_NOW=" + Now.Format(time.RFC3339), "PATH=" + os.Getenv("PATH")}
	term := 0
	if plan != nil {
		if plan.Action == Term {
			term = plan.K
		} else {
			act := map[Action]string{Crash: "kill", CrashAfter: "kill-after", Fault: "fail"}[plan.Action]
			cmd.Env = append(cmd.Env, fmt.Sprintf("TARGET_ORACLE_TEST_FAULT=%s:%d:%s", plan.Kind, plan.K, act))
		}
	}
	cmd.Stdin = strings.NewReader(in)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, 0, "", err
	}
	if err := cmd.Start(); err != nil {
		return nil, 0, "", err
	}
	var states []int
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		line := sc.Text()
		m := posRE.FindStringSubmatch(strings.ReplaceAll(line, " ", ""))
		if m == nil {
			t.res.failf("state line %q is not a state of the input", line)
			continue
		}
		pos, _ := strconv.Atoi(m[1])
		states = append(states, pos)
		if len(states) == term {
			// The orchestrator stops the run once it has seen K states.
			_ = cmd.Process.Signal(syscall.SIGTERM)
		}
	}
	err = cmd.Wait()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = 128 + int(ws.Signal())
		}
	case err != nil:
		return states, 0, stderr.String(), err
	}
	return states, code, stderr.String(), nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
