// Package loadgen drives a running pitwall service the way a crowd of
// racers would, to measure it: races of racers who each hold a secret
// seat link, watch their race's stream, and send their orders the moment
// they see a turn open; each race resolves a turn when every order is in.
// It speaks only the public API, so it measures any service it can reach.
package loadgen

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Config is a workload.
type Config struct {
	URL    string // the service, such as http://127.0.0.1:8080
	Races  int
	Racers int // seats in each race
	Turns  int // turns each racer orders for
	// Client is the HTTP client; nil: one with a connection for every
	// racer's stream and one more each for its orders.
	Client *http.Client
	// Progress, if not nil, is called now and then with the orders
	// answered so far and the orders there are to send, one call at a time.
	Progress func(done, total int)
	// Started, if not nil, is called as the measured run begins: every
	// race made and every stream open, no order sent yet.
	Started func()
}

// The game the workload plays: rtd takes twelve karts, a race lasts well
// over ten turns, and its orders need no reading of the state (a start,
// then driving on).
const (
	ruleset    = "rtd"
	startOrder = "safe start"
	driveOrder = "defensive"
	maxRacers  = 12
	// maxTurns keeps every kart racing to the last turn ordered: karts
	// were seen to finish (and order no more) from the 17th turn.
	maxTurns = 12
)

// Result is what a run measured.
type Result struct {
	Orders int // acknowledged: stored and answered 200
	Turns  int // turns seen resolved, all races together
	// Elapsed runs from the first order sent to the last one answered.
	Elapsed time.Duration
	// Latencies are each acknowledged order's, from sending it to its
	// answer read, in order.
	Latencies []time.Duration
}

// PerSecond is acknowledged orders a second.
func (r Result) PerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Orders) / r.Elapsed.Seconds()
}

// Percentile is the latency under which a fraction q (0 to 1) of the
// acknowledged orders were answered.
func (r Result) Percentile(q float64) time.Duration {
	if len(r.Latencies) == 0 {
		return 0
	}
	i := int(q*float64(len(r.Latencies))+0.5) - 1
	return r.Latencies[min(max(i, 0), len(r.Latencies)-1)]
}

func (r Result) String() string {
	return fmt.Sprintf("%d orders acknowledged in %.2fs: %.0f a second; latency p50 %s, p99 %s, max %s; %d turns resolved",
		r.Orders, r.Elapsed.Seconds(), r.PerSecond(), r.Percentile(0.5).Round(10*time.Microsecond),
		r.Percentile(0.99).Round(10*time.Microsecond), r.Percentile(1).Round(10*time.Microsecond), r.Turns)
}

// Check says what is wrong with the workload, if anything.
func (c *Config) Check() error {
	switch {
	case c.URL == "":
		return errors.New("no service to measure: give its URL")
	case c.Races < 1 || c.Races > 10000:
		return fmt.Errorf("races is from 1 to 10000; not %d", c.Races)
	case c.Racers < 2 || c.Racers > maxRacers:
		return fmt.Errorf("racers is from 2 to %d (a race of %s); not %d", maxRacers, ruleset, c.Racers)
	case c.Turns < 1 || c.Turns > maxTurns:
		return fmt.Errorf("turns is from 1 to %d (the first karts of %s may finish from turn 17 on); not %d", maxTurns, ruleset, c.Turns)
	}
	c.URL = strings.TrimSuffix(c.URL, "/")
	if c.Client == nil {
		n := c.Races * c.Racers * 2
		c.Client = &http.Client{Transport: &http.Transport{MaxIdleConns: n, MaxIdleConnsPerHost: n, IdleConnTimeout: time.Minute}}
	}
	return nil
}

// created is what the service answers a race's creation with.
type created struct {
	ID    string `json:"id"`
	Seats []struct {
		Seat  int    `json:"seat"`
		Token string `json:"token"`
	} `json:"seats"`
}

// Run creates the races, opens every racer's stream, and plays Turns
// turns of orders. It returns once every racer has sent its last order
// and seen the race resolve it, or ctx ends.
func Run(ctx context.Context, cfg Config) (Result, error) {
	if err := cfg.Check(); err != nil {
		return Result{}, err
	}
	races := make([]created, cfg.Races)
	for i := range races {
		var err error
		if races[i], err = cfg.create(ctx, i); err != nil {
			return Result{}, err
		}
	}
	total := cfg.Races * cfg.Racers * cfg.Turns
	m := &meter{total: total, progress: cfg.Progress}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	var errOnce sync.Once
	var first error
	var ready sync.WaitGroup // every stream open before the first order
	start := make(chan struct{})
	for _, rc := range races {
		for _, seat := range rc.Seats {
			ready.Add(1)
			wg.Go(func() {
				if err := cfg.racer(ctx, rc.ID, seat.Seat, seat.Token, m, &ready, start); err != nil && ctx.Err() == nil {
					errOnce.Do(func() { first = err; cancel() })
				}
			})
		}
	}
	ready.Wait()
	if cfg.Started != nil {
		cfg.Started()
	}
	m.begin = time.Now()
	close(start)
	wg.Wait()
	if first != nil {
		return Result{}, first
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	return m.result(), nil
}

func (c *Config) create(ctx context.Context, n int) (created, error) {
	var seats []map[string]string
	for i := 0; i < c.Racers; i++ {
		seats = append(seats, map[string]string{"name": fmt.Sprintf("Kart %d", i+1), "player": fmt.Sprintf("r%d-p%d", n, i+1)})
	}
	body, _ := json.Marshal(map[string]any{"ruleset": ruleset, "seats": seats, "resolve_when": "all_in", "public": false})
	var rc created
	status, out, err := c.post(ctx, "/api/races", "", body)
	if err == nil && status != http.StatusCreated {
		err = fmt.Errorf("creating race %d: %d %s", n+1, status, out)
	}
	if err == nil {
		err = json.Unmarshal(out, &rc)
	}
	if err == nil && len(rc.Seats) != c.Racers {
		err = fmt.Errorf("creating race %d: %d seats, want %d", n+1, len(rc.Seats), c.Racers)
	}
	return rc, err
}

func (c *Config) post(ctx context.Context, path, token string, body []byte) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL+path, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.Client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return resp.StatusCode, out, err
}

// racer is one seat: it opens its stream, orders for turn 1 at the start,
// and for each next turn as the stream says the last one was resolved.
func (c *Config) racer(ctx context.Context, id string, seat int, token string, m *meter, ready *sync.WaitGroup, start chan struct{}) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.URL+"/api/races/"+id+"/events", nil)
	if err != nil {
		ready.Done()
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := c.Client.Do(req)
	if err == nil && resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		err = fmt.Errorf("race %s, seat %d: the stream answered %s", id, seat, resp.Status)
	}
	ready.Done()
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	<-start
	// order sends the order of turn; one not acknowledged ends the run,
	// since its race would wait for it for ever.
	order := func(turn int) error {
		text := driveOrder
		if turn == 1 {
			text = startOrder
		}
		body, _ := json.Marshal(map[string]any{"turn": turn, "orders": text, "key": fmt.Sprintf("bench-%d-%d", seat, turn)})
		t0 := time.Now()
		status, out, err := c.post(ctx, "/api/races/"+id+"/orders", token, body)
		switch {
		case err != nil:
			return fmt.Errorf("race %s, seat %d: the order of turn %d had no answer: %w", id, seat, turn, err)
		case status != http.StatusOK:
			return fmt.Errorf("race %s, seat %d: the order of turn %d was answered %d %s", id, seat, turn, status, bytes.TrimSpace(out))
		}
		m.acknowledged(time.Since(t0))
		return nil
	}
	if err := order(1); err != nil {
		return err
	}
	sc := bufio.NewScanner(resp.Body)
	event := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: ") && event == "turn":
			var d struct{ Turn int }
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &d); err != nil {
				return fmt.Errorf("race %s: a turn event's data %q: %w", id, line, err)
			}
			if seat == 1 {
				m.turns.Add(1)
			}
			if d.Turn >= c.Turns {
				return nil
			}
			if err := order(d.Turn + 1); err != nil {
				return err
			}
		case line == "":
			event = ""
		}
	}
	if err := sc.Err(); err != nil && ctx.Err() == nil {
		return fmt.Errorf("race %s, seat %d: the stream broke: %w", id, seat, err)
	}
	if ctx.Err() == nil {
		return fmt.Errorf("race %s, seat %d: the stream ended before turn %d was resolved", id, seat, c.Turns)
	}
	return nil
}

// meter counts the answers.
type meter struct {
	total    int
	progress func(done, total int)
	begin    time.Time
	turns    atomic.Int64

	pmu sync.Mutex // one Progress call at a time

	mu     sync.Mutex
	end    time.Time
	orders int // acknowledged; any other answer ends the run
	lat    []time.Duration
}

// acknowledged counts an order acknowledged after took.
func (m *meter) acknowledged(took time.Duration) {
	m.mu.Lock()
	m.orders++
	m.lat = append(m.lat, took)
	m.end = time.Now()
	done := m.orders
	m.mu.Unlock()
	if m.progress != nil && (done%1000 == 0 || done == m.total) {
		m.pmu.Lock()
		m.progress(done, m.total)
		m.pmu.Unlock()
	}
}

func (m *meter) result() Result {
	m.mu.Lock()
	defer m.mu.Unlock()
	lat := slices.Clone(m.lat)
	slices.Sort(lat)
	return Result{Orders: m.orders, Turns: int(m.turns.Load()),
		Elapsed: m.end.Sub(m.begin), Latencies: lat}
}
