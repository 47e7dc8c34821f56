package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServeShutsDownCleanly runs 'pitwall serve' on a free port, creates a
// race and sends an order through it, holds a stream open, and sends the
// process SIGTERM: serve must end the stream, return with status 0, and have
// kept the acknowledged order.
func TestServeShutsDownCleanly(t *testing.T) {
	db := filepath.Join(t.TempDir(), "served.db")
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		var out strings.Builder
		done <- run([]string{"--db", db, "serve", "--addr", "127.0.0.1:0"}, &out, pw)
		pw.Close()
	}()
	lines := bufio.NewScanner(pr)
	var base string
	for base == "" && lines.Scan() {
		if _, after, ok := strings.Cut(lines.Text(), " on http://"); ok {
			base = "http://" + strings.Fields(after)[0]
		}
	}
	if base == "" {
		t.Fatal("serve never said where it listens")
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }() // the service's log
	res, err := http.Get(base + "/healthz")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("healthz: %v %v", res, err)
	}
	res.Body.Close()
	post := func(path, token, body string) map[string]any {
		req, _ := http.NewRequest("POST", base+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var v map[string]any
		if err := json.NewDecoder(res.Body).Decode(&v); err != nil || res.StatusCode >= 300 {
			t.Fatalf("POST %s: %d %v %v", path, res.StatusCode, v, err)
		}
		return v
	}
	c := post("/api/races", "", `{"ruleset": "nascar", "seats": [{"name": "Red"}, {"name": "Blue"}]}`)
	id := c["id"].(string)
	seat := c["seats"].([]any)[0].(map[string]any)["token"].(string)
	post("/api/races/"+id+"/orders", seat, `{"turn": 1, "orders": "AM"}`)
	stream, err := http.Get(base + "/api/races/" + id + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("serve ended with status %d after SIGTERM", code)
		}
	case <-time.After(time.Minute):
		t.Fatal("serve did not end within a minute of SIGTERM (an open stream held it?)")
	}
	if _, err := io.ReadAll(stream.Body); err != nil && !strings.Contains(err.Error(), "EOF") {
		t.Errorf("the stream did not end cleanly: %v", err)
	}
	_, show, _ := jsonOf(t, "--db", db, "race", "show", id, "--as", "host")
	if in := show["orders_in"]; len(in.([]any)) != 1 {
		t.Errorf("after the shutdown, the orders in: %v; want Red's", in)
	}
}

// A start refused for its flags says why, with status 2, and makes no
// database.
func TestServeRefusesBadFlags(t *testing.T) {
	db := filepath.Join(t.TempDir(), "never.db")
	refused(t, "a demo pace of 2s", "--demo-pace is from 10s", "--db", db, "serve", "--demo", "--demo-pace", "2s", "--addr", "127.0.0.1:0")
	refused(t, "a rescan of 0s", "--rescan is a length of time", "--db", db, "serve", "--rescan", "0s", "--addr", "127.0.0.1:0")
	refused(t, "a negative rate", "--rate-address and --rate-token are requests a second", "--db", db, "serve", "--rate-token", "-1", "--addr", "127.0.0.1:0")
	refused(t, "a relative --url", "--url is the service's address", "--db", db, "serve", "--url", "/races", "--addr", "127.0.0.1:0")
	if _, err := os.Stat(db); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused start made %s: %v", db, err)
	}
}

// bench serve plays a small workload on a database of its own and says
// what it measured; the database is gone afterwards, and bad flags are
// refused before anything is served.
func TestBenchServe(t *testing.T) {
	code, doc, errs := jsonOf(t, "bench", "serve", "--races", "2", "--racers", "3", "--turns", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if doc["orders"] != 12.0 || doc["turns"] != 4.0 || doc["per_second"].(float64) <= 0 || doc["p99_ms"].(float64) < doc["p50_ms"].(float64) {
		t.Errorf("bench serve said %v", doc)
	}
	has(t, "bench serve's stderr", errs, "2 races x 3 racers x 2 turns on ")
	refused(t, "13 racers", "--racers is from 2 to 12", "bench", "serve", "--racers", "13")
	refused(t, "--server and --db", "give --server or --db, not both", "--db", "x.db", "bench", "serve", "--server", "http://127.0.0.1:1")
	refused(t, "--server without a scheme", "--server is the service's address", "bench", "serve", "--server", "localhost:1")
	for _, server := range []string{"ftp://u:s3cret@h", "http://h/?token=s3cret", "http://u:s3cret@h:99999x/"} {
		if code, out, errs := pitwall(t, "bench", "serve", "--server", server); code != 2 || strings.Contains(out+errs, "s3cret") {
			t.Errorf("bench serve --server %s: exit %d, %s", server, code, errs)
		}
	}
}
