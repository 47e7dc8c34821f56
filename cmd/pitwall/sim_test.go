package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// 'pitwall sim --json' prints the contract's fields, and the same results
// for the same seed on 1 and 2 workers.
func TestSimJSON(t *testing.T) {
	var first map[string]any
	for _, w := range []string{"1", "2"} {
		code, doc, errs := jsonOf(t, "sim", "rtd", "--races", "6", "--seed", "3", "--laps", "1", "--workers", w)
		if code != 0 {
			t.Fatalf("status %d: %s", code, errs)
		}
		for _, k := range []string{"ruleset", "races", "workers", "seconds", "races_per_second", "dice_rolled", "results"} {
			if _, ok := doc[k]; !ok {
				t.Errorf("no %q in %v", k, doc)
			}
		}
		if doc["ruleset"] != "rtd" || doc["races"] != 6.0 || doc["workers"] != map[string]float64{"1": 1, "2": 2}[w] || doc["dice_rolled"].(float64) <= 0 {
			t.Errorf("%v", doc)
		}
		res := doc["results"].(map[string]any)
		for _, k := range []string{"by", "turns", "dnf", "races_over", "even_share"} {
			if _, ok := res[k]; !ok {
				t.Errorf("no results.%s in %v", k, res)
			}
		}
		if first == nil {
			first = res
		} else if a, b := jsonText(t, first), jsonText(t, res); a != b {
			t.Errorf("1 worker:\n%s\n2 workers:\n%s", a, b)
		}
	}
}

func TestSimBadInput(t *testing.T) {
	dir := t.TempDir()
	aFile := filepath.Join(dir, "a-file")
	if err := os.WriteFile(aFile, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sim", "chess", "--races", "3"}, "chess"},
		{[]string{"sim", "ludi", "--races", "0"}, "--races"},
		{[]string{"sim", "ludi", "--races", "3", "--bot", "oracle"}, `no bot "oracle"`},
		{[]string{"sim", "ludi", "--races", "3", "--versus", "oracle"}, `no bot "oracle"`},
		{[]string{"sim", "ludi", "--races", "3", "--option", "wreck-finish"}, "KEY=VALUE"},
		{[]string{"sim", "ludi", "--races", "3", "--track", "monza"}, "monza"},
		{[]string{"sim", "ludi", "--races", "many"}, "invalid argument"},
		{[]string{"sim", "--races", "3"}, "accepts 1 arg"},
		{[]string{"sim", "ludi", "--races", "3", "--workers", "5000"}, "--workers is at most"},
		// Told before the races are played: a million would take a while.
		{[]string{"sim", "ludi", "--races", "1000000", "--plot", aFile}, "--plot"},
		{[]string{"sim", "ludi", "--races", "1000000", "--report", dir}, "--report"},
		{[]string{"sim", "ludi", "--races", "1000000", "--report", filepath.Join(dir, "no", "r.md")}, "folder that does not exist"},
		// A refused spec makes no folder for the charts.
		{[]string{"sim", "ludi", "--races", "0", "--plot", filepath.Join(dir, "charts")}, "--races"},
		// A package the game cannot read is told before any race.
		{[]string{"sim", "ludi", "--races", "1000000", "--option", "package.Gladiator=size,speed,endurance"}, "write package.gladiator"},
	} {
		code, doc, errs := jsonOf(t, c.args...)
		if code != 2 || doc["ok"] != false || !strings.Contains(errs, c.want) || strings.Contains(errs, "goroutine") {
			t.Errorf("%v: status %d, %v, stderr %q; want status 2 saying %q", c.args, code, doc, errs, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "charts")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused run left its --plot folder: %v", err)
	}
}

// --plot and --report write the charts and a report that links them; the
// text output names them.
func TestSimPlotAndReport(t *testing.T) {
	dir := t.TempDir()
	charts, report := filepath.Join(dir, "charts"), filepath.Join(dir, "balance.md")
	code, out, errs := pitwall(t, "sim", "ludi", "--races", "8", "--seed", "2", "--laps", "1", "--plot", charts, "--report", report)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	for _, name := range []string{"win-package", "win-extras", "win-start", "turns"} {
		for _, ext := range []string{".png", ".svg"} {
			if st, err := os.Stat(filepath.Join(charts, name+ext)); err != nil || st.Size() == 0 {
				t.Errorf("%s%s: %v", name, ext, err)
			}
		}
		if !strings.Contains(out, filepath.Join(charts, name)) {
			t.Errorf("the output does not name %s:\n%s", name, out)
		}
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	md := string(b)
	for _, want := range []string{"# Balance report: ludi", "--report " + report, "](charts/win-package.png)", "## Findings", "| package | racers |"} {
		if !strings.Contains(md, want) {
			t.Errorf("the report lacks %q:\n%s", want, md)
		}
	}
	if !strings.Contains(out, "findings:") || !strings.Contains(out, "by package:") {
		t.Errorf("text output:\n%s", out)
	}
}
