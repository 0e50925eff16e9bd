package streammap

import (
	"fmt"
	"math/bits"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Why this file exists: Starlark bounds computation (maxSteps) but not
// memory. One step can allocate without bound ([1]*100000000 is a single
// multiplication), and a comprehension repeats such a step once per
// iteration. A stream map runs on input the tap controls, so an expression
// must not be able to take the process down: every operation that can
// allocate in proportion to its operands is charged to a per-evaluation
// budget before it runs, and the result is measured before it is encoded.
//
// Starlark offers no hook on its operators, so the expression's syntax tree
// is rewritten once per SCHEMA: binary operators, slices and method calls
// become calls of guard built-ins (opGuard, sliceGuard, methodGuard), and
// the universe's materialising built-ins (list, str, zip...) are shadowed
// by charged wrappers. The guards compute exactly what Starlark computes
// (they call starlark.Binary, starlark.Slice and the method itself), so an
// expression's value does not change; only its memory is bounded.

const (
	opGuard     = "__op__"
	sliceGuard  = "__slice__"
	methodGuard = "__method__"
	budgetKey   = "streammap.budget"

	// budgetBase is what one evaluation may allocate besides budgetPerByte
	// bytes per byte of the input record. Sizes are estimates: a byte per
	// byte of text, elemCost per element of a list or tuple, entryCost per
	// entry of a dict or set (what their Go representations take).
	budgetBase    = 64 << 20
	budgetPerByte = 4
	elemCost      = 16
	entryCost     = 64

	// maxIntText is the longest decimal text int() parses (Python's own
	// default limit): converting longer text is quadratic.
	maxIntText = 4300
)

// budget is what the current evaluation may still allocate. It belongs to
// the StreamMap's thread; the guards read it through the thread's locals.
type budget struct{ left int64 }

func (b *budget) reset(recordLen int) { b.left = budgetBase + budgetPerByte*int64(recordLen) }

// charge takes n units, or fails naming what would have used them.
func (b *budget) charge(n int64, what string) error {
	if b == nil {
		return nil
	}
	if n > b.left {
		return fmt.Errorf("%s would use about %d bytes of memory, over what is left of this expression's limit (%d bytes; the limit is %d MiB plus %d bytes per byte of the record)",
			what, n, b.left, budgetBase>>20, budgetPerByte)
	}
	b.left -= n
	return nil
}

func budgetOf(t *starlark.Thread) *budget {
	b, _ := t.Local(budgetKey).(*budget)
	return b
}

// sizeOf estimates the bytes v holds, stopping once limit is passed (so a
// cyclic or huge value costs at most limit steps to measure).
func sizeOf(v starlark.Value, limit int64) int64 {
	var n int64
	var walk func(v starlark.Value, depth int)
	walk = func(v starlark.Value, depth int) {
		if n > limit {
			return
		}
		if depth > maxDepth {
			n = limit + 1
			return
		}
		switch v := v.(type) {
		case starlark.String:
			n += int64(len(v)) + 2
		case starlark.Bytes:
			n += int64(len(v)) + 2
		case starlark.Int:
			if _, ok := v.Int64(); ok {
				n += 20
			} else {
				n += int64(v.BigInt().BitLen()/3 + 2)
			}
		case *recordValue:
			n += int64(len(v.r.raw))
		case starlark.Indexable: // list, tuple
			n += elemCost
			for i := 0; i < v.Len() && n <= limit; i++ {
				walk(v.Index(i), depth+1)
				n += elemCost
			}
		case starlark.IterableMapping: // dict
			n += entryCost
			for _, kv := range v.Items() {
				if n > limit {
					return
				}
				walk(kv[0], depth+1)
				walk(kv[1], depth+1)
				n += entryCost
			}
		case starlark.Iterable: // set
			n += entryCost
			it := v.Iterate()
			defer it.Done()
			var x starlark.Value
			for n <= limit && it.Next(&x) {
				walk(x, depth+1)
				n += entryCost
			}
		default:
			n += 24
		}
	}
	walk(v, 0)
	return n
}

// checkResult refuses a result too large to encode into the record.
func checkResult(t *starlark.Thread, v starlark.Value) error {
	b := budgetOf(t)
	if b == nil {
		return nil
	}
	return b.charge(sizeOf(v, b.left), "the result")
}

// guardTree rewrites e so that every allocating operation goes through a
// guard built-in. It returns the rewritten tree; e may be modified.
func guardTree(e syntax.Expr) syntax.Expr {
	if e == nil {
		return nil
	}
	switch e := e.(type) {
	case *syntax.BinaryExpr:
		e.X, e.Y = guardTree(e.X), guardTree(e.Y)
		if !guardedOps[e.Op] && !walksOperands(e) {
			return e
		}
		return call(e.OpPos, opGuard, opLiteral(e.OpPos, e.Op), e.X, e.Y)
	case *syntax.SliceExpr:
		// x[lo:hi] becomes __slice__(x)[lo:hi]: the guard charges the
		// copy a slice may make and returns x itself.
		e.X = call(e.Lbrack, sliceGuard, guardTree(e.X))
		e.Lo, e.Hi, e.Step = guardTree(e.Lo), guardTree(e.Hi), guardTree(e.Step)
	case *syntax.CallExpr:
		for i, a := range e.Args {
			e.Args[i] = guardArg(a)
		}
		if dot, ok := e.Fn.(*syntax.DotExpr); ok {
			args := append([]syntax.Expr{guardTree(dot.X), stringLiteral(dot.NamePos, dot.Name.Name)}, e.Args...)
			return call(e.Lparen, methodGuard, args...)
		}
		e.Fn = guardTree(e.Fn)
	case *syntax.ParenExpr:
		e.X = guardTree(e.X)
	case *syntax.UnaryExpr:
		e.X = guardTree(e.X)
	case *syntax.CondExpr:
		e.Cond, e.True, e.False = guardTree(e.Cond), guardTree(e.True), guardTree(e.False)
	case *syntax.DotExpr:
		// Not called on the spot (a call is guardMethod's): the method
		// may be called later, so it comes back charged (steps.go).
		return call(e.Dot, attrGuard, guardTree(e.X), stringLiteral(e.NamePos, e.Name.Name))
	case *syntax.IndexExpr:
		e.X, e.Y = guardTree(e.X), guardTree(e.Y)
	case *syntax.ListExpr:
		guardList(e.List)
	case *syntax.TupleExpr:
		guardList(e.List)
	case *syntax.DictExpr:
		guardList(e.List)
	case *syntax.DictEntry:
		e.Key, e.Value = guardTree(e.Key), guardTree(e.Value)
	case *syntax.LambdaExpr:
		for i, p := range e.Params {
			e.Params[i] = guardArg(p)
		}
		e.Body = guardTree(e.Body)
	case *syntax.Comprehension:
		e.Body = guardTree(e.Body)
		for _, c := range e.Clauses {
			switch c := c.(type) {
			case *syntax.ForClause:
				c.X = guardTree(c.X)
			case *syntax.IfClause:
				c.Cond = guardTree(c.Cond)
			}
		}
	}
	return e
}

func guardList(list []syntax.Expr) {
	for i, x := range list {
		list[i] = guardTree(x)
	}
}

// guardArg rewrites a call argument or parameter: name=value keeps its
// name, *args and **kwargs their star.
func guardArg(a syntax.Expr) syntax.Expr {
	if b, ok := a.(*syntax.BinaryExpr); ok && b.Op == syntax.EQ {
		b.Y = guardTree(b.Y)
		return b
	}
	if u, ok := a.(*syntax.UnaryExpr); ok && (u.Op == syntax.STAR || u.Op == syntax.STARSTAR) {
		u.X = guardTree(u.X)
		return u
	}
	return guardTree(a)
}

// guardedOps are the binary operators that can build a new value from
// their operands (comparisons, in, and, or cannot).
var guardedOps = map[syntax.Token]bool{
	syntax.PLUS: true, syntax.MINUS: true, syntax.STAR: true, syntax.PERCENT: true,
	syntax.PIPE: true, syntax.AMP: true, syntax.CIRCUMFLEX: true,
}

func call(pos syntax.Position, fn string, args ...syntax.Expr) *syntax.CallExpr {
	return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: pos, Name: fn}, Lparen: pos, Args: args, Rparen: pos}
}

func opLiteral(pos syntax.Position, op syntax.Token) syntax.Expr {
	return &syntax.Literal{Token: syntax.INT, TokenPos: pos, Raw: fmt.Sprint(int(op)), Value: int64(op)}
}

func stringLiteral(pos syntax.Position, s string) syntax.Expr {
	return &syntax.Literal{Token: syntax.STRING, TokenPos: pos, Raw: fmt.Sprintf("%q", s), Value: s}
}

// guards returns the guard built-ins and the charged universe wrappers
// that a guarded expression's environment holds.
func guards() starlark.StringDict {
	d := starlark.StringDict{
		opGuard:     starlark.NewBuiltin(opGuard, guardOp),
		sliceGuard:  starlark.NewBuiltin(sliceGuard, guardSlice),
		methodGuard: starlark.NewBuiltin(methodGuard, guardMethod),
		attrGuard:   starlark.NewBuiltin(attrGuard, guardAttr),
		"getattr":   starlark.NewBuiltin("getattr", guardGetattr),
	}
	for _, name := range walkingBuiltins {
		d[name] = chargedWalk(name)
	}
	for name, cost := range map[string]int64{
		"list": elemCost, "tuple": elemCost, "sorted": elemCost, "reversed": elemCost,
		"enumerate": 4 * elemCost, "zip": 4 * elemCost, "set": entryCost, "dict": entryCost, "bytes": 1,
	} {
		d[name] = chargedByLength(name, cost)
	}
	for _, name := range []string{"str", "repr"} {
		d[name] = chargedByText(name)
	}
	d["int"] = starlark.NewBuiltin("int", guardInt)
	return d
}

func guardOp(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	code, _ := args[0].(starlark.Int).Int64()
	op := syntax.Token(code)
	x, y := args[1], args[2]
	if err := chargeSteps(t, opSteps(op, x, y, stepsLeft(t)), fmt.Sprintf("%s %s %s", x.Type(), op, y.Type())); err != nil {
		return nil, err
	}
	if !guardedOps[op] {
		return walkingOp(op, x, y)
	}
	if n := opCost(op, x, y, budgetOf(t)); n > 0 {
		if err := budgetOf(t).charge(n, fmt.Sprintf("%s %s %s", x.Type(), op, y.Type())); err != nil {
			return nil, err
		}
	}
	return starlark.Binary(op, x, y)
}

// opCost is the bytes x op y may allocate: text and containers only.
func opCost(op syntax.Token, x, y starlark.Value, b *budget) int64 {
	limit := int64(1 << 62)
	if b != nil {
		limit = b.left
	}
	switch op {
	case syntax.STAR:
		if xi, ok := x.(starlark.Int); ok {
			if yi, ok := y.(starlark.Int); ok {
				// A product of big ints has the operands' bits together:
				// squaring in a chain doubles them each time.
				return int64(bitLen(xi)+bitLen(yi)) / 8
			}
		}
		if n, ok := repeatCount(x, y); ok {
			return n
		}
		if n, ok := repeatCount(y, x); ok {
			return n
		}
		return 0
	case syntax.PERCENT:
		if s, ok := x.(starlark.String); ok {
			// "%s%s" % (v, v): every conversion can spell out a whole operand.
			return int64(len(s)) + int64(strings.Count(string(s), "%")+1)*sizeOf(y, limit)
		}
		return 0
	}
	return length(x) + length(y)
}

func bitLen(i starlark.Int) int {
	if _, ok := i.Int64(); ok {
		return 64
	}
	return i.BigInt().BitLen()
}

// repeatCount is the size of seq * n.
func repeatCount(seq, n starlark.Value) (int64, bool) {
	i, ok := n.(starlark.Int)
	if !ok {
		return 0, false
	}
	l := length(seq)
	if l == 0 {
		return 0, seq != nil && starlark.Len(seq) == 0
	}
	times, ok := i.Int64()
	if !ok {
		return 1 << 62, true
	}
	if times <= 0 {
		return 0, true
	}
	if times > (1<<62)/l {
		return 1 << 62, true
	}
	return l * times, true
}

// length is the bytes a string, bytes or container takes at its top level.
func length(v starlark.Value) int64 {
	switch v := v.(type) {
	case starlark.String, starlark.Bytes:
		return int64(starlark.Len(v))
	case *starlark.List, starlark.Tuple:
		return elemCost * int64(starlark.Len(v))
	case *starlark.Dict, *starlark.Set:
		return entryCost * int64(starlark.Len(v))
	}
	return 0
}

func guardSlice(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	x := args[0]
	if err := budgetOf(t).charge(length(x), "a slice of "+x.Type()); err != nil {
		return nil, err
	}
	return x, nil
}

// guardMethod runs recv.name(args...) after charging what the call may
// allocate: text methods can build text as long as (or, for join, replace
// and format, longer than) their operands; list.extend copies its argument.
func guardMethod(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	recv, name := args[0], string(args[1].(starlark.String))
	rest := args[2:]
	if err := chargeCall(t, recv, name, rest, kwargs); err != nil {
		return nil, err
	}
	fn, err := getAttr(recv, name)
	if err != nil {
		return nil, err
	}
	return starlark.Call(t, fn, rest, kwargs)
}

func getAttr(recv starlark.Value, name string) (starlark.Value, error) {
	ha, ok := recv.(starlark.HasAttrs)
	if !ok {
		return nil, fmt.Errorf("%s has no .%s field or method", recv.Type(), name)
	}
	fn, err := ha.Attr(name)
	if err != nil {
		return nil, err
	}
	if fn == nil {
		return nil, fmt.Errorf("%s has no .%s field or method", recv.Type(), name)
	}
	return fn, nil
}

func chargeMethod(b *budget, recv starlark.Value, name string, args starlark.Tuple, kwargs []starlark.Tuple) error {
	if b == nil {
		return nil
	}
	what := fmt.Sprintf("%s.%s()", recv.Type(), name)
	var n int64
	switch recv := recv.(type) {
	case starlark.String, starlark.Bytes:
		n = textMethodCost(recv, name, args, kwargs, b.left)
	case *starlark.List:
		if name == "extend" && len(args) == 1 {
			n = elemCost * int64(max(starlark.Len(args[0]), 0))
		}
	case *starlark.Dict:
		switch name {
		case "update":
			n = argsSize(args, kwargs, b.left)
		case "items":
			n = 3 * elemCost * int64(recv.Len()) // a list of pairs
		case "keys", "values":
			n = elemCost * int64(recv.Len())
		}
	case *recordValue:
		// Each method converts the whole record to a dict first
		// (recordValue.Attr), and items/keys/values build a list of it.
		n = 4 * entryCost * int64(len(recv.r.members))
	default:
		// json.dumps and other helpers: text up to 6 bytes per input unit
		// (a control character is spelled \u0000).
		if _, isModule := recv.(starlark.HasAttrs); isModule && len(args) > 0 {
			n = textSize(args, b.left)
			if len(kwargs) > 0 {
				// json.dumps(x, separators=(long, long)) writes the
				// separators once per element and entry of x.
				n += 2 * argsSize(nil, kwargs, b.left) * (deepArgsSteps(args, b.left) + 1)
			}
		}
	}
	return b.charge(n, what)
}

func textMethodCost(recv starlark.Value, name string, args starlark.Tuple, kwargs []starlark.Tuple, limit int64) int64 {
	if searchMethods[name] {
		return 0 // a number or a bool: nothing in proportion to the text
	}
	self := length(recv)
	switch name {
	case "split", "rsplit", "splitlines":
		// A list of pieces: elemCost and a string header each, besides
		// the text. Without a separator, at most one piece per two bytes.
		s, _ := recv.(starlark.String)
		pieces := self/2 + 1
		if sep, ok := argString(args, 0); ok && sep != "" && name != "splitlines" {
			pieces = int64(strings.Count(string(s), sep)) + 1
		} else if name == "splitlines" {
			pieces = int64(strings.Count(string(s), "\n")+strings.Count(string(s), "\r")) + 1
		}
		return self + pieces*(elemCost+16)
	case "join":
		if len(args) != 1 {
			return self
		}
		n := int64(max(starlark.Len(args[0]), 0))
		return self*n + sizeOf(args[0], limit)
	case "replace":
		if len(args) < 2 {
			return self
		}
		old, _ := args[0].(starlark.String)
		repl, _ := args[1].(starlark.String)
		s, _ := recv.(starlark.String)
		count := int64(strings.Count(string(s), string(old)))
		return self + count*max(int64(len(repl)), 1)
	case "format":
		// Each replacement field can spell out the whole of the arguments.
		s, _ := recv.(starlark.String)
		fields := int64(strings.Count(string(s), "{") + 1)
		return self + fields*argsSize(args, kwargs, limit)
	}
	return self + argsSize(args, kwargs, limit)
}

func argString(args starlark.Tuple, i int) (string, bool) {
	if i >= len(args) {
		return "", false
	}
	s, ok := args[i].(starlark.String)
	return string(s), ok
}

func argsSize(args starlark.Tuple, kwargs []starlark.Tuple, limit int64) int64 {
	var n int64
	for _, a := range args {
		n += sizeOf(a, limit)
	}
	for _, kv := range kwargs {
		n += sizeOf(kv[1], limit)
	}
	return n
}

// textSize bounds the text of args: 6 bytes per unit of a value (a
// control character is spelled \u0000), but 3 per byte of a record, whose
// JSON text already spells its escapes (ensure_ascii makes a 2-byte
// character 6 bytes), plus its separators.
func textSize(args starlark.Tuple, limit int64) int64 {
	var n int64
	for _, a := range args {
		if r, ok := a.(*recordValue); ok {
			n += 3*int64(len(r.r.raw)) + 4*int64(len(r.r.members))
			continue
		}
		n += 6 * sizeOf(a, limit)
	}
	return n
}

// chargedByLength wraps a universe built-in that materialises its
// arguments (list(range(n)), sorted(x), zip(a, b)): it may allocate an
// element (of cost bytes) per element of each argument.
func chargedByLength(name string, cost int64) *starlark.Builtin {
	orig := starlark.Universe[name].(*starlark.Builtin)
	return starlark.NewBuiltin(name, func(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var n int64
		for _, a := range args {
			if l := starlark.Len(a); l > 0 {
				n += cost * int64(l)
			}
		}
		steps := argsSteps(args)
		if name == "sorted" {
			// About log2(n) comparisons per element, each walking it.
			steps = deepArgsSteps(args, stepsLeft(t)) * int64(bits.Len64(uint64(max(steps, 1))))
		}
		if err := chargeSteps(t, steps, name+"()"); err != nil {
			return nil, err
		}
		if err := budgetOf(t).charge(n, name+"()"); err != nil {
			return nil, err
		}
		return starlark.Call(t, orig, args, kwargs)
	})
}

// chargedByText wraps str and repr: the text of a value is up to 6 bytes
// per unit it holds.
func chargedByText(name string) *starlark.Builtin {
	orig := starlark.Universe[name].(*starlark.Builtin)
	return starlark.NewBuiltin(name, func(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if b := budgetOf(t); b != nil && len(args) == 1 {
			if _, isText := args[0].(starlark.String); !isText || name == "repr" {
				size := sizeOf(args[0], b.left)
				if err := chargeSteps(t, size/textPerStep, name+"()"); err != nil {
					return nil, err
				}
				if err := b.charge(textSize(args, b.left), name+"()"); err != nil {
					return nil, err
				}
			}
		}
		return starlark.Call(t, orig, args, kwargs)
	})
}

// guardInt refuses decimal text longer than maxIntText, as Python does.
func guardInt(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) > 0 {
		if s, ok := args[0].(starlark.String); ok && len(s) > maxIntText {
			return nil, fmt.Errorf("int(): text of %d characters is longer than the %d digits a stream map converts", len(s), maxIntText)
		}
	}
	return starlark.Call(t, starlark.Universe["int"], args, kwargs)
}

// compileGuarded compiles one expression with its allocating operations
// guarded. The expression becomes the body of a lambda in a one-line file
// (the only form whose syntax tree Starlark compiles), so its free names
// stay predeclared names of env, read from env on each call.
func compileGuarded(thread *starlark.Thread, name, code string, env starlark.StringDict) (*starlark.Function, error) {
	const fnName = "__expr__"
	f, err := fileOptions.Parse(name, fnName+" = lambda: (\n"+code+"\n)\n", 0)
	if err != nil {
		return nil, err
	}
	assign, ok := f.Stmts[0].(*syntax.AssignStmt)
	if !ok || len(f.Stmts) != 1 {
		return nil, fmt.Errorf("not a single expression")
	}
	lambda, ok := assign.RHS.(*syntax.LambdaExpr)
	if !ok {
		return nil, fmt.Errorf("not a single expression")
	}
	lambda.Body = guardTree(lambda.Body)
	prog, err := starlark.FileProgram(f, env.Has)
	if err != nil {
		return nil, err
	}
	globals, err := prog.Init(thread, env)
	if err != nil {
		return nil, err
	}
	fn, ok := globals[fnName].(*starlark.Function)
	if !ok {
		return nil, fmt.Errorf("not a single expression")
	}
	return fn, nil
}
