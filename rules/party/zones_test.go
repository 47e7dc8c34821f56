package party

import (
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// A zone comes from the embedded data whatever the machine has: here
// ZONEINFO, which time.LoadLocation reads before anything else, names a
// folder whose Europe/Paris is UTC's data and which has no other zone.
func TestZoneFromEmbeddedDataNotTheMachines(t *testing.T) {
	files, err := zoneFiles()
	if err != nil {
		t.Fatal(err)
	}
	rc, err := files["UTC"].Open()
	if err != nil {
		t.Fatal(err)
	}
	utc, err := io.ReadAll(rc)
	rc.Close()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "Europe"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Europe", "Paris"), utc, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ZONEINFO", dir)
	july := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)

	// The machine's way sees the false Paris (time reads ZONEINFO once a
	// process: this is the only test that calls time.LoadLocation).
	sys, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	if _, off := july.In(sys).Zone(); off != 0 {
		t.Fatalf("time.LoadLocation did not read ZONEINFO (offset %d): the test shows nothing", off)
	}

	for _, tc := range []struct {
		zone   string
		at     time.Time
		abbrev string
		off    int
	}{
		{"Europe/Paris", july, "CEST", 2 * 3600},
		{"Europe/Paris", time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC), "CET", 3600},
		{"Pacific/Auckland", july, "NZST", 12 * 3600}, // not in the folder at all
		{"UTC", july, "UTC", 0},
	} {
		for _, load := range []func(string) (*time.Location, error){readZone, loadZone} {
			loc, err := load(tc.zone)
			if err != nil {
				t.Fatalf("%s: %v", tc.zone, err)
			}
			if loc.String() != tc.zone {
				t.Errorf("%s: named %q", tc.zone, loc)
			}
			if abbrev, off := tc.at.In(loc).Zone(); abbrev != tc.abbrev || off != tc.off {
				t.Errorf("%s at %s: %s %d, want %s %d", tc.zone, tc.at.Format(time.DateOnly), abbrev, off, tc.abbrev, tc.off)
			}
		}
	}
}

// An unknown zone, a folder of the archive, a path out of it or a name in
// the wrong case: the same clear error as ever.
func TestUnknownZone(t *testing.T) {
	for _, name := range []string{"Mars/Olympus", "Europe", "../../etc/passwd", "/etc/localtime", "europe/paris", "Europe/Paris/"} {
		_, err := loadZone(name)
		want := `tz "` + name + `" is not a time zone pitwall knows; give an IANA name such as UTC, Europe/Paris or Pacific/Auckland`
		if err == nil || err.Error() != want {
			t.Errorf("%q: got %v, want %s", name, err, want)
		}
	}
	for _, name := range []string{"", "Local"} {
		if _, err := loadZone(name); err == nil {
			t.Errorf("%q: no error", name)
		}
	}
}

// A zone is read once, and loading it from many goroutines at once is safe
// (the race detector's run checks it) and gives the same location.
func TestZoneLoadedOnce(t *testing.T) {
	var wg sync.WaitGroup
	locs := make([]*time.Location, 8)
	for i := range locs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			loc, err := loadZone("Asia/Tokyo")
			if err != nil {
				t.Error(err)
			}
			locs[i] = loc
		}()
	}
	wg.Wait()
	for _, loc := range locs[1:] {
		if loc != locs[0] {
			t.Fatal("two locations for one zone")
		}
	}
}

// Every zone in the archive loads.
func TestEveryEmbeddedZoneLoads(t *testing.T) {
	files, err := zoneFiles()
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 500 {
		t.Fatalf("only %d zones in the archive", len(files))
	}
	for name := range files {
		if _, err := readZone(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
