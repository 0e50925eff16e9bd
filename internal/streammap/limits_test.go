package streammap

import (
	"encoding/json"
	"errors"
	"runtime"
	"strings"
	"testing"
)

// TestMemoryLimit runs expressions that would allocate gigabytes in one
// step or one comprehension. Each must fail as an *EvalError naming the
// property, after allocating a bounded amount (checked with the runtime's
// cumulative allocation counter, not with time).
func TestMemoryLimit(t *testing.T) {
	hostile := []string{
		`[1]*100000000`,
		`'ab'*100000000`,
		`100000000*[1]`,
		`[[0]*1000000 for i in range(1000)]`,
		`[s + s for s in ['x'*4000000]*1000]`,
		`','.join(['x'*1000000]*1000)`,
		`str(['x'*1000000]*1000)`,
		`repr(['x'*1000000]*1000)`,
		`('%s' * 1000) % tuple(['x'*100000]*1000)`,
		`('{0}' * 1000).format('x'*1000000)`,
		`[list(l) for l in [[0]*1000000]*100]`,
		`[sorted(l) for l in [[0]*1000000]*100]`,
		`[zip(l, l) for l in [[0]*1000000]*100]`,
		`[('x'*1000000)[1:] for i in range(100)]`,
		`json.dumps(['x'*1000000]*100)`,
		`('x'*1000000).replace('', 'y'*100)`,
		`int('9'*100000)`,
		`[l for l in [[1]] for i in range(100) if l.extend(l) == None]`,
		`[l for l in [[]] if l.append(l) == None]`,
		`[{1:2}.update(d) for d in [{i: i for i in range(100000)}]*1000]`,
		`[set(s) | set(s) for s in [list(range(1000000))]*100]`,
		// From a hostile probe: squaring a big int in a chain of lambdas.
		`(lambda f: f(f(f(f(f(f(f(f(f(f(f(f(f(f(f(f(f(f(f(f(f(f(1<<500)))))))))))))))))))))) % 7)(lambda x: x*x)`,
		// Methods reached other than by a direct call.
		`getattr('x'*1000000, 'replace')('', 'y'*1000)`,
		`(lambda s: s.replace)('x'*1000000)('', 'y'*1000)`,
		`[f('', 'y'*1000) for f in [('x'*1000000).replace]]`,
		`[len(('a,'*1000000).split(',')) for i in range(100)]`,
		`[len(d.items()) for d in [{i: i for i in range(100000)}]*1000]`,
		// From a hostile probe (h-probe): separators are written once per
		// element; this one wrote 1 GB (846 MB of RSS for a tenth of it).
		`len(json.dumps([0]*100000, separators=('x'*10000, ':')))`,
	}
	for _, expr := range hostile {
		t.Run(expr, func(t *testing.T) {
			maps, _ := json.Marshal(map[string]any{"users": map[string]string{"n": expr}})
			sm := one(t, compile(t, string(maps), ""), usersSchema, []string{"id"})
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, _, err := sm.Apply([]byte(`{"id":1}`))
			runtime.ReadMemStats(&after)
			var ee *EvalError
			if !errors.As(err, &ee) || ee.Property != "n" {
				t.Fatalf("Apply: %v, want an *EvalError on property n", err)
			}
			if !strings.Contains(err.Error(), "memory") && !strings.Contains(err.Error(), "too many steps") && !strings.Contains(err.Error(), "digits") && !strings.Contains(err.Error(), "nest") {
				t.Errorf("error %v does not say which limit", err)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > 600<<20 {
				t.Errorf("allocated %d MiB before failing, want a bounded amount", got>>20)
			}
		})
	}
}

// TestStepLimit runs expressions whose built-ins, operators or methods walk
// a whole value in one interpreter step, repeated by a comprehension: each
// would run for seconds to minutes on one record unless the walk is
// counted. Each must fail naming the step limit.
func TestStepLimit(t *testing.T) {
	hostile := []string{
		`[max(l) for l in [list(range(100000))]*1000]`,
		`[min(l) + 1 for l in [list(range(100000))]*1000]`,
		`[any(l) for l in [[0]*100000]*1000]`,
		`[100000 in l for l in [list(range(100000))]*1000]`,
		`[l == m for l in [list(range(100000))]*1000 for m in [list(range(100000))]]`,
		// A search reads a kilobyte per step (scanPerStep): 10 GB here.
		`[s.count('y') for s in ['x'*1000000]*10000]`,
		`[getattr(s, 'find')('y') for s in ['x'*1000000]*10000]`,
		`[sorted(l) for l in [[0]*100000]*1000]`,
		// From a hostile probe (h-probe): walks below the top level, and
		// hashing, were not counted; each ran for minutes on one record.
		`(lambda a, b: [[a]*1000]*1000 == [[b]*1000]*1000)(list(range(100000)), list(range(100000)))`,
		`(lambda a, b: len(sorted([a, b]*5000)))(list(range(100000)), list(range(100000)))`,
		`(lambda a, b: max([a, b]*5000))(list(range(100000)), list(range(100000)))`,
		`(lambda a: [1 for i in range(100000) if a in {}])(tuple([tuple(range(1000))]*1000))`,
		`[md5(s) for s in ['x'*1000000]*100000]`,
		`[sha256(s) for s in ['x'*1000000]*100000]`,
	}
	for _, expr := range hostile {
		t.Run(expr, func(t *testing.T) {
			maps, _ := json.Marshal(map[string]any{"users": map[string]string{"n": expr}})
			sm := one(t, compile(t, string(maps), ""), usersSchema, []string{"id"})
			_, _, err := sm.Apply([]byte(`{"id":1}`))
			var ee *EvalError
			if !errors.As(err, &ee) || ee.Property != "n" || !strings.Contains(err.Error(), "too many steps") {
				t.Fatalf("Apply: %v, want an *EvalError on property n naming the step limit", err)
			}
		})
	}
}

// TestGuardsKeepValues checks that guarded operators, slices and methods
// compute what Starlark computes.
func TestGuardsKeepValues(t *testing.T) {
	tests := []struct{ expr, want string }{
		{`name + '!'`, `"Ann!"`},
		{`name * 2`, `"AnnAnn"`},
		{`2 * [id]`, `[1,1]`},
		{`'%s-%d' % (name, id)`, `"Ann-1"`},
		{`'{}:{n}'.format(name, n=id)`, `"Ann:1"`},
		{`'-'.join([name, name])`, `"Ann-Ann"`},
		{`name[1:]`, `"nn"`},
		{`name[::-1]`, `"nnA"`},
		{`[x*2 for x in range(3)][1:]`, `[2,4]`},
		{`sorted([3, 1, 2])`, `[1,2,3]`},
		{`list(zip([1], [2]))`, `[[1,2]]`},
		{`str(id) + repr(name)`, `"1\"Ann\""`},
		{`int('42') - 1`, `41`},
		{`(lambda a, b=2: a * b)(id + 1)`, `4`},
		{`{'a': id} | {'b': 2}`, `{"a":1,"b":2}`},
		{`7 % 3 + (6 ^ 3) + (6 & 3) + (6 | 1)`, `15`},
		{`name.upper().replace('N', 'x')`, `"Axx"`},
		{`md5(name)[:4]`, `"82e3"`},
		{`record.get('name') + json.dumps([id])`, `"Ann[1]"`},
		{`getattr(name, 'upper')()`, `"ANN"`},
		{`(lambda f: f('n', 'x'))(name.replace)`, `"Axx"`},
		{`max([id, 5]) + min(3, id)`, `6`},
		{`[id in [1, 2], name in ['Bob'], [1, id] == [1, 1], (1, 2) < (1, id)]`, `[true,false,true,false]`},
		{`'a,b'.split(',') + 'x y'.split()`, `["a","b","x","y"]`},
		{`sorted(record.keys())`, `["id","name"]`},
		{`[[id, [name]]] == [[1, ['Ann']]] and (id, name) in {(1, 'Ann'): 1} and max([[id], [2]]) == [2]`, `true`},
		{`sorted([[2, name], [1, name]]) + [range(3) == range(3), 'n' in {'n': 1}]`, `[[1,"Ann"],[2,"Ann"],true,true]`},
		{`md5(name) == md5('Ann')`, `true`},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			maps, _ := json.Marshal(map[string]any{"users": map[string]string{"n": tt.expr}})
			sm := one(t, compile(t, string(maps), ""), usersSchema, []string{"id"})
			out, _, err := sm.Apply([]byte(`{"id":1,"name":"Ann"}`))
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			var rec map[string]json.RawMessage
			if err := json.Unmarshal(out, &rec); err != nil {
				t.Fatalf("output %s: %v", out, err)
			}
			if got := string(rec["n"]); got != tt.want {
				t.Errorf("n = %s, want %s", got, tt.want)
			}
		})
	}
}

// TestLargeRecordsPass: expressions the SDK's docs write, on a record of
// tens of MB (SPEC §4: lines may be that long), stay within the limits.
// From a hostile probe (h-probe): searches were charged a step per 64
// bytes and their whole text as memory, and json.dumps/str of the record
// six bytes per byte, so each of these failed with "too many steps" or
// "memory" on a 40 MB record.
func TestLargeRecordsPass(t *testing.T) {
	big := strings.Repeat("lorem ipsum ", 40<<20/12)
	raw, _ := json.Marshal(map[string]any{"id": 1, "name": big})
	for _, expr := range []string{
		`'spam' not in name and 'ham' not in name and 'eggs' not in name and 'bacon' not in name`,
		`len(json.dumps(record))`,
		`len(str(record))`,
		`[name.find('lorem', i) for i in range(20)][-1]`,
		`name.count('lorem') + (1 if name.startswith('lorem') else 0)`,
	} {
		t.Run(expr, func(t *testing.T) {
			maps, _ := json.Marshal(map[string]any{"users": map[string]string{"n": expr}})
			sm := one(t, compile(t, string(maps), ""), usersSchema, []string{"id"})
			if _, _, err := sm.Apply(raw); err != nil {
				t.Fatalf("Apply: %v", err)
			}
		})
	}
}
