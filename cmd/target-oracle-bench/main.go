// Command target-oracle-bench is the benchmark of SPEC §10: it runs
// `target-oracle --dry-run` and the decode-into-maps baseline alternately
// over the same benchmark stream and reports records/s, the ratio and peak
// memory. See docs/performance.md.
//
//	go run ./cmd/target-oracle-bench -n 1000000 -runs 5 -procs 1,2
//	go run ./cmd/target-oracle-bench -shape wide -n 100000 -file wide.singer
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/target-oracle/target-oracle/internal/bench"
)

func main() {
	n := flag.Int("n", 1000000, "records in the benchmark stream")
	runs := flag.Int("runs", 3, "runs of each program per GOMAXPROCS value (the median is reported)")
	procs := flag.String("procs", "1,2", "GOMAXPROCS values, comma separated")
	shared := flag.String("shared", "../shared/bench", "the yardstick folder (gen.py and baseline/); its own generator and baseline loop are used when absent")
	file := flag.String("file", "", "use this benchmark stream instead of generating one")
	baselineMode := flag.String("baseline", "", "internal: run the built-in baseline over FILE")
	shape := flag.String("shape", "", "write N records of this shape to -file (or stdout) and exit: "+strings.Join(bench.Shapes, ", ")+" (docs/performance.md)")
	flag.Parse()
	if *baselineMode != "" {
		os.Exit(runBaseline(*baselineMode))
	}
	if *shape != "" {
		if err := writeShape(*shape, *n, *file); err != nil {
			fmt.Fprintln(os.Stderr, "target-oracle-bench:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*n, *runs, *procs, *shared, *file); err != nil {
		fmt.Fprintln(os.Stderr, "target-oracle-bench:", err)
		os.Exit(1)
	}
}

// writeShape writes the shapes generator's output to path ("" = stdout).
func writeShape(shape string, n int, path string) error {
	if path == "" {
		return bench.GenerateShape(os.Stdout, shape, n)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := bench.GenerateShape(f, shape, n); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func runBaseline(path string) int {
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer f.Close()
	n, err := bench.Baseline(f)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Fprintln(os.Stderr, n)
	return 0
}

func run(n, runs int, procList, shared, file string) error {
	dir, err := os.MkdirTemp("", "target-oracle-bench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if file == "" {
		if file, err = stream(n, shared, dir); err != nil {
			return err
		}
	}
	target := filepath.Join(dir, "target-oracle")
	if out, err := exec.Command("go", "build", "-o", target, "./cmd/target-oracle").CombinedOutput(); err != nil {
		return fmt.Errorf("build target-oracle: %v\n%s", err, out)
	}
	baseName, baseArgs, baseLabel := baseline(shared, dir, file)
	fmt.Printf("benchmark stream: %s (%d records)\nbaseline: %s\n\n", file, n, baseLabel)
	fmt.Printf("%-9s %-14s %12s %14s %12s\n", "GOMAXPROCS", "program", "seconds", "records/s", "peak RSS MB")
	for _, p := range strings.Split(procList, ",") {
		procs, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return fmt.Errorf("-procs: %w", err)
		}
		var tr, br []bench.Result
		for i := 0; i < runs; i++ {
			b, err := bench.Measure(baseName, baseArgs, procs)
			if err != nil {
				return err
			}
			r, err := bench.Measure(target, []string{"--dry-run", "--input", file}, procs)
			if err != nil {
				return err
			}
			br, tr = append(br, b), append(tr, r)
		}
		b, t := bench.Median(br), bench.Median(tr)
		fmt.Printf("%-9d %-14s %12.2f %14.0f %12.1f\n", procs, "baseline", b.Seconds, float64(n)/b.Seconds, float64(b.PeakRSS)/1e6)
		fmt.Printf("%-9d %-14s %12.2f %14.0f %12.1f\n", procs, "target-oracle", t.Seconds, float64(n)/t.Seconds, float64(t.PeakRSS)/1e6)
		fmt.Printf("%-9d %-14s %12.2fx\n\n", procs, "ratio", b.Seconds/t.Seconds)
	}
	return nil
}

// stream writes the benchmark stream with ../shared/bench/gen.py when it
// is there (the yardstick), else with the built-in generator.
func stream(n int, shared, dir string) (string, error) {
	path := filepath.Join(dir, fmt.Sprintf("bench-%d.singer", n))
	if _, err := os.Stat(filepath.Join(shared, "gen.py")); err == nil {
		if out, err := exec.Command("python3", filepath.Join(shared, "gen.py"), strconv.Itoa(n), path).CombinedOutput(); err == nil {
			return path, nil
		} else {
			fmt.Fprintf(os.Stderr, "gen.py failed (%v: %s); using the built-in generator\n", err, out)
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	if err := bench.Generate(f, n); err != nil {
		f.Close()
		return "", err
	}
	return path, f.Close()
}

func baseline(shared, dir, file string) (string, []string, string) {
	bin := filepath.Join(dir, "baseline")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = filepath.Join(shared, "baseline")
	if _, err := os.Stat(cmd.Dir); err == nil {
		if out, err := cmd.CombinedOutput(); err == nil {
			return bin, []string{file}, filepath.Join(shared, "baseline")
		} else {
			fmt.Fprintf(os.Stderr, "building %s failed (%v: %s); using the built-in baseline\n", cmd.Dir, err, out)
		}
	}
	self, _ := os.Executable()
	return self, []string{"-baseline", file}, "built-in copy of the decode-into-maps loop"
}
