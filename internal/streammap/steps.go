package streammap

import (
	"fmt"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Why this file exists: Starlark counts a step per bytecode instruction,
// but a built-in that walks a whole value (max(xs), x in xs, xs == ys,
// s.count(t), record.get(k)) is one instruction however large the value.
// Inside a comprehension such a walk repeats once per iteration, so an
// expression could spend minutes on one record within maxSteps. The guards
// below add the walk's length to the thread's step count before the walk
// runs, so maxSteps bounds the work actually done. The second gap closed
// here: a method reached other than by a direct call (getattr(s,
// 'replace'), a lambda returning s.replace) is wrapped so that its call is
// charged as a direct call is (chargeMethod).

const (
	attrGuard = "__attr__"

	// textPerStep is how many bytes of text a step stands for: scanning
	// text runs at memory speed, a few dozen bytes in the time of one
	// interpreted instruction.
	textPerStep = 64

	// scanPerStep is how many bytes of text a step stands for where the
	// text is only compared, searched or hashed (x in s, s == t, s.find):
	// those run at memory speed, about a kilobyte in the time of one
	// interpreted instruction. At 64 a filter such as
	// "'spam' not in body and 'ham' not in body" on a 36 MB body failed.
	scanPerStep = 1024
)

// chargeSteps adds n steps to the evaluation on t, or fails when that
// passes maxSteps, before the walk they stand for runs.
func chargeSteps(t *starlark.Thread, n int64, what string) error {
	if n <= 0 || budgetOf(t) == nil {
		return nil
	}
	if t.Steps+uint64(n) >= maxSteps {
		t.Steps = maxSteps
		return fmt.Errorf("%s: too many steps (an evaluation may take %d; walking a value takes a step per element, or per %d bytes of text)",
			what, maxSteps, textPerStep)
	}
	t.Steps += uint64(n)
	return nil
}

// walkSteps is what walking v's top level costs: a step per element of a
// container, a step per textPerStep bytes of text.
func walkSteps(v starlark.Value) int64 {
	switch v := v.(type) {
	case starlark.String:
		return int64(len(v)) / textPerStep
	case starlark.Bytes:
		return int64(len(v)) / textPerStep
	case *recordValue:
		return int64(len(v.r.members))
	case starlark.Sequence: // list, tuple, dict, set, range
		return int64(max(v.Len(), 0))
	}
	return 0
}

// deepSteps is what comparing or hashing v may walk: a step per element
// at every level, and per textPerStep bytes of text, stopping once limit
// is passed (so measuring costs at most limit steps of Go). A list holding
// one list a thousand times ([a]*1000) is walked a thousand times by a
// comparison, and counted so.
func deepSteps(v starlark.Value, limit int64) int64 {
	var n int64
	var walk func(v starlark.Value, depth int)
	walk = func(v starlark.Value, depth int) {
		if n > limit || depth > maxDepth || v.Type() == "range" {
			return // a range compares by its bounds, walking nothing
		}
		switch v := v.(type) {
		case starlark.String, starlark.Bytes:
			n += scanSteps(v)
		case *recordValue:
			n += int64(len(v.r.members)) + int64(len(v.r.raw))/textPerStep
		case starlark.Indexable: // list, tuple
			for i := 0; i < v.Len() && n <= limit; i++ {
				n++
				walk(v.Index(i), depth+1)
			}
		case starlark.IterableMapping: // dict
			for _, kv := range v.Items() {
				if n > limit {
					return
				}
				n++
				walk(kv[0], depth+1)
				walk(kv[1], depth+1)
			}
		case starlark.Iterable: // set
			it := v.Iterate()
			defer it.Done()
			var x starlark.Value
			for n <= limit && it.Next(&x) {
				n++
				walk(x, depth+1)
			}
		}
	}
	walk(v, 0)
	return n
}

// stepsLeft is what the evaluation on t may still take.
func stepsLeft(t *starlark.Thread) int64 {
	if t.Steps >= maxSteps {
		return 0
	}
	return int64(maxSteps - t.Steps)
}

func deepArgsSteps(args starlark.Tuple, limit int64) int64 {
	var n int64
	for _, a := range args {
		n += deepSteps(a, limit-n)
	}
	return n
}

// scanSteps is what searching or comparing text costs: a step per
// scanPerStep bytes.
func scanSteps(v starlark.Value) int64 {
	switch v := v.(type) {
	case starlark.String:
		return int64(len(v)) / scanPerStep
	case starlark.Bytes:
		return int64(len(v)) / scanPerStep
	}
	return 0
}

// searchMethods only read their receiver and arguments.
var searchMethods = map[string]bool{
	"find": true, "rfind": true, "index": true, "rindex": true, "count": true,
	"startswith": true, "endswith": true,
}

func argsSteps(args starlark.Tuple) int64 {
	var n int64
	for _, a := range args {
		n += walkSteps(a)
	}
	return n
}

// walkingOps are the operators that can walk their operands: membership
// in a list or text, and comparisons of lists and tuples.
var walkingOps = map[syntax.Token]bool{
	syntax.IN: true, syntax.NOT_IN: true,
	syntax.EQL: true, syntax.NEQ: true, syntax.LT: true, syntax.GT: true, syntax.LE: true, syntax.GE: true,
}

// walksOperands reports whether e may walk a container: not when it
// compares with a literal (status != 'deleted', id > 0, x == None), the
// common case, which thus keeps the interpreter's own allocation-free
// comparison.
func walksOperands(e *syntax.BinaryExpr) bool {
	if !walkingOps[e.Op] {
		return false
	}
	if e.Op == syntax.IN || e.Op == syntax.NOT_IN {
		return !scalar(e.Y)
	}
	return !scalar(e.X) && !scalar(e.Y)
}

// scalar reports whether e is a literal or None/True/False.
func scalar(e syntax.Expr) bool {
	switch e := e.(type) {
	case *syntax.Literal:
		return true
	case *syntax.Ident:
		return e.Name == "None" || e.Name == "True" || e.Name == "False"
	case *syntax.UnaryExpr:
		return scalar(e.X)
	}
	return false
}

// opSteps is what x op y may walk, at every level of nesting: comparing
// lists compares their elements, which may be lists themselves. limit is
// what the evaluation may still take.
func opSteps(op syntax.Token, x, y starlark.Value, limit int64) int64 {
	switch op {
	case syntax.IN, syntax.NOT_IN:
		switch y.(type) {
		case *starlark.List, starlark.Tuple:
			// Each element is compared with x, each comparison walking at
			// most the element.
			return deepSteps(y, limit)
		case starlark.String, starlark.Bytes:
			return scanSteps(y)
		case *starlark.Dict, *starlark.Set, *recordValue:
			return deepSteps(x, limit) // hashing x walks it
		}
		return 0 // computed (range)
	case syntax.EQL, syntax.NEQ, syntax.LT, syntax.GT, syntax.LE, syntax.GE:
		return min(deepSteps(x, limit), deepSteps(y, limit))
	}
	return 0
}

// walkingOp computes x op y for a walking operator, as the interpreter
// does: comparisons through Compare, membership through Binary.
func walkingOp(op syntax.Token, x, y starlark.Value) (starlark.Value, error) {
	if op == syntax.IN || op == syntax.NOT_IN {
		return starlark.Binary(op, x, y)
	}
	ok, err := starlark.Compare(op, x, y)
	if err != nil {
		return nil, err
	}
	return starlark.Bool(ok), nil
}

// walkingBuiltins are the universe's built-ins that walk their arguments
// without allocating in proportion to them (those that do are charged for
// memory and steps by chargedByLength).
var walkingBuiltins = []string{"max", "min", "any", "all", "hash"}

// chargedWalk wraps a universe built-in that walks its arguments.
func chargedWalk(name string) *starlark.Builtin {
	orig := starlark.Universe[name].(*starlark.Builtin)
	return starlark.NewBuiltin(name, func(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		steps := argsSteps(args)
		if name != "any" && name != "all" { // these test truth, walking one level
			steps = deepArgsSteps(args, stepsLeft(t))
		}
		if err := chargeSteps(t, steps, name+"()"); err != nil {
			return nil, err
		}
		return starlark.Call(t, orig, args, kwargs)
	})
}

// methodSteps is what recv.name(args...) may walk: its receiver and its
// arguments (append, get and pop on a list's end walk nothing, but a
// step per element is a bound, not a price).
func methodSteps(recv starlark.Value, name string, args starlark.Tuple) int64 {
	switch recv.(type) {
	case *starlark.List, *starlark.Dict:
		switch name {
		case "append", "get", "pop", "clear", "setdefault":
			return 0
		}
	}
	if _, isText := recv.(starlark.String); isText && searchMethods[name] {
		n := scanSteps(recv)
		for _, a := range args {
			n += scanSteps(a)
		}
		return n
	}
	return walkSteps(recv) + argsSteps(args)
}

// guardAttr evaluates x.name where it is not called on the spot: a
// method comes back wrapped so that calling it later is charged as
// calling it directly is.
func guardAttr(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	recv, name := args[0], string(args[1].(starlark.String))
	fn, err := getAttr(recv, name)
	if err != nil {
		return nil, err
	}
	return chargedMethod(recv, name, fn), nil
}

// guardGetattr is getattr(x, name[, default]) with the method it returns
// wrapped as guardAttr wraps it.
func guardGetattr(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	v, err := starlark.Call(t, starlark.Universe["getattr"], args, kwargs)
	if err != nil || len(args) < 2 {
		return v, err
	}
	name, ok := args[1].(starlark.String)
	if !ok {
		return v, nil
	}
	return chargedMethod(args[0], string(name), v), nil
}

// chargedMethod wraps fn, the method name of recv, so that each call is
// charged for memory and steps before it runs.
func chargedMethod(recv starlark.Value, name string, fn starlark.Value) starlark.Value {
	b, ok := fn.(*starlark.Builtin)
	if !ok {
		return fn
	}
	return starlark.NewBuiltin(b.Name(), func(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := chargeCall(t, recv, name, args, kwargs); err != nil {
			return nil, err
		}
		return starlark.Call(t, b, args, kwargs)
	})
}

// chargeCall charges recv.name(args...) for the memory it may allocate
// and the steps it may walk.
func chargeCall(t *starlark.Thread, recv starlark.Value, name string, args starlark.Tuple, kwargs []starlark.Tuple) error {
	what := fmt.Sprintf("%s.%s()", recv.Type(), name)
	if err := chargeSteps(t, methodSteps(recv, name, args), what); err != nil {
		return err
	}
	return chargeMethod(budgetOf(t), recv, name, args, kwargs)
}
