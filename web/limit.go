package web

import (
	"crypto/sha256"
	"fmt"
	"math"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Rate limits. Every API request counts against the address it comes from
// and, when it carries a token, against the token: a racer's page gone
// wrong, or a script trying tokens, is slowed down without slowing anyone
// else. A refused request is answered 429 with Retry-After and changes
// nothing. Each limit is a token bucket: PerSecond requests a second on
// average, Burst at once.

// Limits are a server's rate limits; a zero PerSecond is no limit.
type Limits struct {
	Address, Token Limit
	// BehindProxy: requests come through a proxy that appends the client's
	// address to X-Forwarded-For; the address counted is that last one,
	// not the proxy's own.
	BehindProxy bool
}

// Limit is one rate limit.
type Limit struct {
	PerSecond float64
	Burst     int
}

// DefaultLimits are generous for people and their pages (a racer sends a
// few requests a minute), and stop a flood.
var DefaultLimits = Limits{Address: Limit{PerSecond: 100, Burst: 400}, Token: Limit{PerSecond: 20, Burst: 100}}

// buckets is one limit's token buckets, by key.
type buckets struct {
	lim   Limit
	mu    sync.Mutex
	m     map[string]*bucket
	swept time.Time
}

type bucket struct {
	l    *rate.Limiter
	seen time.Time
}

// idle is how long a bucket unused is kept: long enough to be full again.
const idle = 10 * time.Minute

func newBuckets(lim Limit) *buckets {
	if lim.Burst < 1 {
		lim.Burst = 1
	}
	return &buckets{lim: lim, m: map[string]*bucket{}}
}

// take takes one request of key at now; when the bucket is empty it says
// how long until it is not.
func (b *buckets) take(key string, now time.Time) (bool, time.Duration) {
	if b == nil || b.lim.PerSecond <= 0 {
		return true, 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if now.Sub(b.swept) > idle {
		for k, x := range b.m {
			if now.Sub(x.seen) > idle {
				delete(b.m, k)
			}
		}
		b.swept = now
	}
	x := b.m[key]
	if x == nil {
		x = &bucket{l: rate.NewLimiter(rate.Limit(b.lim.PerSecond), b.lim.Burst)}
		b.m[key] = x
	}
	x.seen = now
	r := x.l.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// SetLimits sets the server's rate limits; call it before serving.
func (s *Server) SetLimits(l Limits) {
	s.limits = l
	s.byAddress, s.byToken = newBuckets(l.Address), newBuckets(l.Token)
}

// clientAddress is the address a request is counted against.
func (s *Server) clientAddress(r *http.Request) string {
	if s.limits.BehindProxy {
		if xff := r.Header.Values("X-Forwarded-For"); len(xff) > 0 {
			last := xff[len(xff)-1]
			if i := strings.LastIndexByte(last, ','); i >= 0 {
				last = last[i+1:]
			}
			if a := strings.TrimSpace(last); a != "" {
				return a
			}
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// limited answers a request over its limits with 429 and says so.
func (s *Server) limited(w http.ResponseWriter, r *http.Request) bool {
	if !strings.HasPrefix(r.URL.Path, "/api/") {
		return false
	}
	now := time.Now()
	ok, wait := s.byAddress.take(s.clientAddress(r), now)
	what := "this address"
	if tok, found := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && found && tok != "" {
		sum := sha256.Sum256([]byte(tok))
		ok, wait = s.byToken.take(string(sum[:]), now)
		what = "this token"
	}
	if ok {
		return false
	}
	secs := int(math.Ceil(wait.Seconds()))
	w.Header().Set("Retry-After", fmt.Sprint(secs))
	writeError(w, http.StatusTooManyRequests, &apiError{Msg: fmt.Sprintf("too many requests from %s; send again in %d s", what, secs), Code: "rate_limited"})
	return true
}
