package party

import (
	"archive/zip"
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"sync"
	"time"
)

// The race's time zone comes from zoneinfo/zoneinfo.zip, a copy of the IANA
// data that ships with Go, embedded and pinned (zoneinfo/README): never
// from the machine, whose data (time.LoadLocation reads the system's first)
// can be of another version, or change under a race, so that a replay on
// another machine, or after an update, would put a phase's edge elsewhere.

//go:embed zoneinfo/zoneinfo.zip
var zoneinfoZip []byte

// zoneFiles indexes the archive's files by zone name, once.
var zoneFiles = sync.OnceValues(func() (map[string]*zip.File, error) {
	r, err := zip.NewReader(bytes.NewReader(zoneinfoZip), int64(len(zoneinfoZip)))
	if err != nil {
		return nil, fmt.Errorf("the embedded time zone data: %w", err)
	}
	files := make(map[string]*zip.File, len(r.File))
	for _, f := range r.File {
		if !f.FileInfo().IsDir() {
			files[f.Name] = f
		}
	}
	return files, nil
})

// zones are the zones loaded so far, by name: each is read once a process.
var zones sync.Map // string -> *time.Location

// loadZone loads an IANA zone by name from the embedded data.
func loadZone(name string) (*time.Location, error) {
	if name == "" || name == "Local" {
		return nil, fmt.Errorf("tz %q: give an IANA zone name such as UTC, Europe/Paris or Pacific/Auckland", name)
	}
	if loc, ok := zones.Load(name); ok {
		return loc.(*time.Location), nil
	}
	loc, err := readZone(name)
	if err != nil {
		return nil, fmt.Errorf("tz %q is not a time zone pitwall knows; give an IANA name such as UTC, Europe/Paris or Pacific/Auckland", name)
	}
	got, _ := zones.LoadOrStore(name, loc)
	return got.(*time.Location), nil
}

// readZone reads zone name from the embedded archive.
func readZone(name string) (*time.Location, error) {
	files, err := zoneFiles()
	if err != nil {
		return nil, err
	}
	f, ok := files[name]
	if !ok {
		return nil, fmt.Errorf("no zone %q in the embedded data", name)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, 1<<20))
	if err != nil {
		return nil, err
	}
	return time.LoadLocationFromTZData(name, data)
}
