package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"pitwall/store"
	"pitwall/store/postgres"
	"pitwall/store/postgres/pgtest"
	"pitwall/store/sqlite"
)

// The crash test: racers send orders as fast as the service answers while
// the service is killed with SIGKILL, again and again; after each restart
// they send again what had no answer, with the same key. In the end every
// acknowledged order is in the log exactly once, with its text, nothing is
// in it that was not sent, and every race verifies.
func TestCrashLosesNothingAcknowledged(t *testing.T) {
	if testing.Short() {
		t.Skip("the crash test builds pitwall and kills it a dozen times")
	}
	bin := filepath.Join(t.TempDir(), "pitwall")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("building pitwall: %v\n%s", err, out)
	}
	t.Run("sqlite", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "crash.db")
		crashRounds(t, bin, db, func() store.Store {
			st, err := sqlite.Open(db)
			if err != nil {
				t.Fatal(err)
			}
			return st
		})
	})
	t.Run("postgres", func(t *testing.T) {
		db := pgtest.Schema(t, "crash")
		crashRounds(t, bin, db, func() store.Store {
			st, err := postgres.Open(context.Background(), db)
			if err != nil {
				t.Fatal(err)
			}
			return st
		})
	})
}

// crashRounds is one store's crash test.
func crashRounds(t *testing.T, bin, db string, open func() store.Store) {
	// At least rounds kills, and more (up to maxRounds) until one has cut
	// short an order the service had stored: what the test is for.
	const rounds, maxRounds, races, seats = 8, 24, 2, 4
	srv := startServe(t, bin, db)
	var links []crashSeat
	for r := 0; r < races; r++ {
		links = append(links, createCrashRace(t, srv.url, seats)...)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	acked := map[string]crashOrder{} // by key
	sent := map[string]crashOrder{}
	var mu sync.Mutex
	var unanswered []crashOrder // of the round before, to send again
	n, cut := 0, 0              // orders made; orders with no answer
	// repeats: orders sent again that the service knew by their key: it
	// had stored them and was killed before it answered.
	repeats := 0
	round := 0
	for ; round < rounds || repeats == 0 && round < maxRounds; round++ {
		if round > 0 {
			srv = startServe(t, bin, db)
		}
		stop := make(chan struct{})
		var wg sync.WaitGroup
		again := unanswered
		unanswered = nil
		for i, l := range links {
			var first []crashOrder
			for _, o := range again {
				if o.seat == l {
					first = append(first, o)
				}
			}
			wg.Go(func() {
				queue := first
				for k := 0; ; k++ {
					var o crashOrder
					if len(queue) > 0 {
						o, queue = queue[0], queue[1:]
					} else {
						select {
						case <-stop:
							return
						default:
						}
						mu.Lock()
						n++
						o = crashOrder{seat: l, key: fmt.Sprintf("crash-%d-%d-%d", round, i, k), text: []string{"Accelerate", "Whip", "Hold"}[n%3]}
						mu.Unlock()
					}
					mu.Lock()
					sent[o.key] = o
					mu.Unlock()
					status, repeat, err := postOrder(srv.url, o)
					if err == nil && status != http.StatusOK {
						t.Errorf("order %s (%q) was answered %d", o.key, o.text, status)
						return
					}
					mu.Lock()
					if err != nil {
						unanswered = append(unanswered, o)
					} else {
						acked[o.key] = o
						if repeat {
							repeats++
						}
					}
					mu.Unlock()
					if err != nil {
						return // the service is down
					}
				}
			})
		}
		time.Sleep(time.Duration(100+rng.IntN(300)) * time.Millisecond)
		srv.kill()
		close(stop)
		wg.Wait()
		cut += len(unanswered)
	}
	srv = startServe(t, bin, db) // the orders of the last round that had no answer
	for _, o := range unanswered {
		status, repeat, err := postOrder(srv.url, o)
		if err != nil || status != http.StatusOK {
			t.Errorf("order %s sent again after the last restart: %d, %v", o.key, status, err)
			continue
		}
		acked[o.key] = o
		if repeat {
			repeats++
		}
	}
	srv.kill()
	// An order refused once the service is down proves nothing; one stored
	// and not answered, then sent again, does.
	if len(acked) < 50 || repeats == 0 {
		t.Fatalf("%d orders acknowledged, and in %d rounds no kill cut short an order the service had stored: the test proves little", len(acked), round)
	}
	st := open()
	defer st.Close()
	ids := map[string]bool{}
	for _, l := range links {
		ids[l.race] = true
	}
	seen := map[string]int{}
	for id := range ids {
		r, err := st.Load(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range r.Log {
			if e.Key == "" {
				continue
			}
			seen[e.Key]++
			o, ok := sent[e.Key]
			switch {
			case !ok:
				t.Errorf("race %s entry %d has key %q, which no racer sent", id, e.Seq, e.Key)
			case o.text != e.Text || o.seat.race != id || o.seat.seat != e.Seat+1:
				t.Errorf("entry %d of %s is %q from seat %d; the racer sent %q from seat %d of %s", e.Seq, id, e.Text, e.Seat+1, o.text, o.seat.seat, o.seat.race)
			}
		}
		if code, _, errs := pitwall(t, "--db", db, "verify", id); code != 0 {
			t.Errorf("verify %s: exit %d: %s", id, code, errs)
		}
	}
	for k := range acked {
		if seen[k] != 1 {
			t.Errorf("acknowledged order %s is in the log %d times", k, seen[k])
		}
	}
	t.Logf("%d rounds: %d orders sent, %d without an answer and sent again (%d of them found stored already by their key), %d acknowledged, %d stored",
		round, len(sent), cut, repeats, len(acked), len(seen))
}

type crashSeat struct {
	race  string
	seat  int
	token string
}

type crashOrder struct {
	seat      crashSeat
	key, text string
}

// postOrder sends o and gives the answer's status and whether the service
// took it as a repeat of its key, or an error when there was no answer
// (the service was killed).
func postOrder(url string, o crashOrder) (int, bool, error) {
	body, _ := json.Marshal(map[string]any{"turn": 1, "orders": o.text, "key": o.key})
	req, _ := http.NewRequest(http.MethodPost, url+"/api/races/"+o.seat.race+"/orders", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+o.seat.token)
	resp, err := crashClient.Do(req)
	if err != nil {
		return 0, false, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, false, err // cut off mid-answer: no answer
	}
	var ack struct{ Repeat bool }
	_ = json.Unmarshal(b, &ack) // a refusal's body has none
	return resp.StatusCode, ack.Repeat, nil
}

var crashClient = &http.Client{Timeout: 10 * time.Second}

func createCrashRace(t *testing.T, url string, seats int) []crashSeat {
	t.Helper()
	var ss []map[string]string
	for i := 0; i < seats; i++ {
		ss = append(ss, map[string]string{"name": fmt.Sprint("Auriga ", i+1), "package": "military", "extras": "skill,speed"})
	}
	body, _ := json.Marshal(map[string]any{"ruleset": "ludi", "seats": ss})
	resp, err := crashClient.Post(url+"/api/races", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var rc struct {
		ID    string
		Seats []struct {
			Seat  int
			Token string
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&rc); err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("creating a race: %s, %v", resp.Status, err)
	}
	var out []crashSeat
	for _, s := range rc.Seats {
		out = append(out, crashSeat{race: rc.ID, seat: s.Seat, token: s.Token})
	}
	return out
}

type served struct {
	url string
	cmd *exec.Cmd
}

// startServe starts pitwall serve on db and waits for /healthz.
func startServe(t *testing.T, bin, db string) *served {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	// Every racer on one address, ordering as fast as it can: no limits.
	cmd := exec.Command(bin, "--db", db, "serve", "--addr", addr, "--rate-address", "0", "--rate-token", "0")
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &served{url: "http://" + addr, cmd: cmd}
	t.Cleanup(func() { s.kill() })
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		resp, err := crashClient.Get(s.url + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s
			}
		}
	}
	t.Fatalf("pitwall serve on %s did not answer /healthz in 30 s", addr)
	return nil
}

// kill ends the service with SIGKILL: nothing of it runs after.
func (s *served) kill() {
	if s.cmd.ProcessState != nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	_ = s.cmd.Wait() // the store's files stay as the kill left them
}
