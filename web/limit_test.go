package web

import (
	"net/http/httptest"
	"strconv"
	"testing"
	"time"
)

// TestRateLimits: a token or an address over its limit is answered 429
// with Retry-After, changes nothing, and does not slow another token or
// address; the limit refills with time.
func TestRateLimits(t *testing.T) {
	s := newService(t)
	c := s.create(twoCars)
	s.srv.SetLimits(Limits{Address: Limit{PerSecond: 1000, Burst: 1000}, Token: Limit{PerSecond: 0.001, Burst: 3}})
	path := "/api/races/" + c.ID + "/orders"
	for range 3 {
		s.must(200, "POST", path, c.Seats[0], `{"turn": 1, "orders": "AM"}`)
	}
	res := s.do("POST", path, c.Seats[0], `{"turn": 1, "orders": "AML"}`)
	res.Body.Close()
	if res.StatusCode != 429 {
		t.Fatalf("the fourth order at once: %d; want 429", res.StatusCode)
	}
	if n, err := strconv.Atoi(res.Header.Get("Retry-After")); err != nil || n < 1 {
		t.Errorf("Retry-After %q", res.Header.Get("Retry-After"))
	}
	s.must(200, "GET", "/api/races/"+c.ID, c.Seats[1], "") // another token goes on
	if n, err := s.srv.host.Store.Last(t.Context(), c.ID); err != nil || n != 3 {
		t.Errorf("after the refusal the log has %d entries (%v); want the 3 orders taken", n, err)
	}
	s.must(200, "GET", "/healthz", "", "") // not limited
	// By address: one address is refused, another is not.
	s.srv.SetLimits(Limits{Address: Limit{PerSecond: 0.001, Burst: 2}})
	s.must(200, "GET", "/api/races/"+c.ID, "", "")
	s.must(200, "GET", "/api/races/"+c.ID, "", "")
	s.must(429, "GET", "/api/races/"+c.ID, "", "")
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/api/races/"+c.ID, nil)
	req.RemoteAddr = "203.0.113.9:4000"
	s.srv.Handler().ServeHTTP(rec, req)
	if rec.Code != 200 {
		t.Errorf("another address: %d", rec.Code)
	}
	// Behind a proxy, the address the proxy appended counts.
	s.srv.SetLimits(Limits{Address: Limit{PerSecond: 0.001, Burst: 1}, BehindProxy: true})
	for i, want := range []int{200, 429, 200} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "/api/races/"+c.ID, nil)
		req.RemoteAddr = "127.0.0.1:5000"
		req.Header.Set("X-Forwarded-For", "6.6.6.6, 198.51.100."+strconv.Itoa(i/2+1))
		s.srv.Handler().ServeHTTP(rec, req)
		if rec.Code != want {
			t.Errorf("request %d behind the proxy: %d; want %d", i, rec.Code, want)
		}
	}
}

// TestBucketsRefill: a bucket refills at its rate, and idle ones are
// forgotten.
func TestBucketsRefill(t *testing.T) {
	b := newBuckets(Limit{PerSecond: 2, Burst: 2})
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	for i, want := range []bool{true, true, false} {
		if ok, _ := b.take("k", now); ok != want {
			t.Fatalf("take %d: %v", i, ok)
		}
	}
	if ok, wait := b.take("k", now); ok || wait != 500*time.Millisecond {
		t.Errorf("empty: %v, wait %s; want 500ms", ok, wait)
	}
	if ok, _ := b.take("k", now.Add(500*time.Millisecond)); !ok {
		t.Error("not refilled after 500ms")
	}
	b.take("other", now.Add(2*idle))
	if len(b.m) != 1 {
		t.Errorf("%d buckets kept; the idle one should be gone", len(b.m))
	}
	if ok, _ := (*buckets)(nil).take("k", now); !ok {
		t.Error("no limit refused")
	}
}
