package loadgen_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"pitwall/host"
	_ "pitwall/rules/rtd"
	"pitwall/store"
	"pitwall/store/sqlite"
	"pitwall/web"
	"pitwall/web/loadgen"
)

// A small workload runs to its end on a service over SQLite: every order
// acknowledged once, every turn of every race resolved, each order's
// latency measured, and the races' logs hold exactly what was ordered.
func TestRunPlaysEveryTurn(t *testing.T) {
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "bench.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv, err := web.New(host.New(st), nil)
	if err == nil {
		srv.SetLimits(web.Limits{}) // every racer on one address
	}
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var progress []int // Progress is called one call at a time
	// Started comes once, with every race made and no order stored yet.
	var started []string
	res, err := loadgen.Run(ctx, loadgen.Config{URL: ts.URL + "/", Races: 3, Racers: 4, Turns: 3,
		Progress: func(done, total int) { progress = append(progress, done) },
		Started: func() {
			list, err := st.List(ctx, store.Page{})
			started = append(started, fmt.Sprint(len(list), " races ", err))
			for _, sm := range list {
				started = append(started, fmt.Sprint(sm.Entries, " entries"))
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"3 races <nil>", "0 entries", "0 entries", "0 entries"}; !slices.Equal(started, want) {
		t.Errorf("at Started: %q; want %q", started, want)
	}
	if res.Orders != 36 || res.Turns != 9 || len(res.Latencies) != 36 {
		t.Fatalf("%+v; want 36 orders acknowledged, 9 turns", res)
	}
	// Percentile reads the latencies by rank (TestPercentile): they must come sorted.
	if res.Elapsed <= 0 || res.PerSecond() <= 0 || !slices.IsSorted(res.Latencies) || res.Latencies[0] <= 0 {
		t.Errorf("elapsed %s, %.0f a second, latencies %v", res.Elapsed, res.PerSecond(), res.Latencies)
	}
	if len(progress) != 1 || progress[0] != 36 {
		t.Errorf("progress reported %v, want [36]", progress)
	}
	if !strings.Contains(res.String(), "36 orders acknowledged") {
		t.Errorf("the result reads %q", res.String())
	}
	list, err := st.List(ctx, store.Page{})
	if err != nil || len(list) != 3 {
		t.Fatalf("%d races stored, %v", len(list), err)
	}
	for _, sm := range list {
		if sm.Turns != 3 || sm.Entries != 3*4+3 {
			t.Errorf("race %s: %d turns, %d entries; want 3 turns of 4 orders and a resolve", sm.ID, sm.Turns, sm.Entries)
		}
	}
}

func TestConfigRefused(t *testing.T) {
	for _, c := range []loadgen.Config{
		{Races: 1, Racers: 2, Turns: 1},
		{URL: "http://x", Races: 0, Racers: 2, Turns: 1},
		{URL: "http://x", Races: 1, Racers: 1, Turns: 1},
		{URL: "http://x", Races: 1, Racers: 13, Turns: 1},
		{URL: "http://x", Races: 1, Racers: 2, Turns: 0},
		{URL: "http://x", Races: 1, Racers: 2, Turns: 21},
	} {
		if _, err := loadgen.Run(context.Background(), c); err == nil {
			t.Errorf("%+v was taken", c)
		}
	}
}

func TestPercentile(t *testing.T) {
	r := loadgen.Result{}
	if r.Percentile(0.5) != 0 || r.PerSecond() != 0 {
		t.Error("an empty result has a latency or a rate")
	}
	for i := 1; i <= 100; i++ {
		r.Latencies = append(r.Latencies, time.Duration(i)*time.Millisecond)
	}
	r.Orders, r.Elapsed = 100, 2*time.Second
	for q, want := range map[float64]time.Duration{0.5: 50 * time.Millisecond, 0.99: 99 * time.Millisecond, 1: 100 * time.Millisecond, 0: time.Millisecond} {
		if got := r.Percentile(q); got != want {
			t.Errorf("Percentile(%v) = %s, want %s", q, got, want)
		}
	}
	if r.PerSecond() != 50 {
		t.Errorf("PerSecond = %v, want 50", r.PerSecond())
	}
}

// An order the service refuses ends the run at once with what the service
// said: its race would otherwise wait for it for ever.
func TestRefusedOrderEndsTheRun(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/races", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusCreated)
		fmt.Fprint(w, `{"id": "r1", "seats": [{"seat": 1, "token": "a"}, {"seat": 2, "token": "b"}]}`)
	})
	mux.HandleFunc("GET /api/races/r1/events", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		<-r.Context().Done() // a stream that never tells of a turn
	})
	mux.HandleFunc("POST /api/races/r1/orders", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnprocessableEntity)
		fmt.Fprint(w, `{"error": "not an order"}`)
	})
	ts := httptest.NewServer(mux)
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := loadgen.Run(ctx, loadgen.Config{URL: ts.URL, Races: 1, Racers: 2, Turns: 2})
	if err == nil || !strings.Contains(err.Error(), "answered 422") || !strings.Contains(err.Error(), "not an order") || ctx.Err() != nil {
		t.Fatalf("a refused order: %v; want the refusal, before the test's deadline", err)
	}
}
