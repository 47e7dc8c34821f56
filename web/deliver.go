package web

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"pitwall/host"
	"pitwall/race"
	"pitwall/store"
)

// Sending webhooks. Every instance runs RunHooks: it queues each deadline's
// warning when its time comes and sends what the outbox holds. An instance
// claims a few deliveries at a time, holding them for a while (holdFor), so
// two instances do not send one delivery at once; an instance that dies
// holding some leaves them to be taken again once the hold passes. A
// delivery is therefore sent at least once, and may (rarely) be sent twice:
// its payload carries its id, for a receiver to notice.

// HookConfig is how the service sends webhooks.
type HookConfig struct {
	// PublicURL is the service's address as the world reaches it, such as
	// https://pitwall.example.org: a payload's links to the race and its
	// picture start with it. Empty: payloads carry no links.
	PublicURL string
	// AllowPrivate lets webhooks go to this machine and to private
	// networks (a receiver beside the service, tests).
	AllowPrivate bool
	// Client sends the deliveries; nil: a client that waits 10 s for an
	// answer, follows no redirect, and (unless AllowPrivate) connects to
	// public addresses only.
	Client *http.Client
}

// The limits of sending.
const (
	hookTimeout  = 10 * time.Second
	holdFor      = 2 * time.Minute // longer than a claim's sends can take
	claimAtOnce  = 16
	sendsAtOnce  = 4
	maxAttempts  = 10
	firstBackoff = 30 * time.Second
	maxBackoff   = time.Hour
	// After Discord's limits: an embed's description, a message's content.
	discordDescription = 4096
	discordContent     = 2000
	maxErrorText       = 300
)

// hookState is the webhooks' side of a server.
type hookState struct {
	claim string // this instance's name in the outbox's claims

	mu     sync.Mutex
	live   []store.Hook // the hooks not removed, of every race
	read   time.Time    // when live was read; zero: read it again
	forgot uint64       // forgets so far: a read a forget overtook is not kept
	warned map[warned]bool
	pruned time.Time // when the outbox was last cleaned up (prune.go)
}

// hooksRefresh is how often the hooks not removed are read again: what
// another instance added or removed is known here within it.
const hooksRefresh = 10 * time.Second

type warned struct {
	hook     int64
	deadline time.Time
}

func newHookState() *hookState {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return &hookState{claim: hex.EncodeToString(b), warned: map[warned]bool{}}
}

// forget makes the next look at the hooks read them again (one was added
// or removed here).
func (hs *hookState) forget() {
	hs.mu.Lock()
	hs.read = time.Time{}
	hs.forgot++
	hs.mu.Unlock()
}

// ConfigureHooks sets how webhooks are sent; call it before serving.
func (s *Server) ConfigureHooks(c HookConfig) {
	c.PublicURL = strings.TrimRight(c.PublicURL, "/")
	if c.Client == nil {
		d := &net.Dialer{Timeout: hookTimeout}
		if !c.AllowPrivate {
			d.Control = func(network, address string, _ syscall.RawConn) error { return guardAddress(address) }
		}
		c.Client = &http.Client{
			Timeout:       hookTimeout,
			Transport:     &http.Transport{DialContext: d.DialContext, TLSHandshakeTimeout: hookTimeout, MaxIdleConnsPerHost: 2},
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
	}
	s.hookCfg = c
}

// RunHooks queues warnings, sends webhooks and (hourly) cleans up the
// outbox until ctx ends, looking every interval.
func (s *Server) RunHooks(ctx context.Context, every time.Duration) {
	if _, err := s.hookStore(); err != nil {
		return
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if _, err := s.WarnDue(ctx); err != nil && ctx.Err() == nil {
			s.log.Error("queueing deadline warnings", "err", err)
		}
		if _, err := s.PruneOutbox(ctx); err != nil && ctx.Err() == nil {
			s.log.Error("cleaning up the webhooks' outbox", "err", err)
		}
		for {
			n, err := s.DeliverDue(ctx)
			if err != nil && ctx.Err() == nil {
				s.log.Error("sending webhooks", "err", err)
			}
			if n == 0 || err != nil || ctx.Err() != nil {
				break
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// liveHooks is every hook not removed, read again every refresh. The read
// is made without the lock, which a host's request adding or removing a
// hook takes (forget): a slow database holds up no request.
func (s *Server) liveHooks(ctx context.Context, hs store.HookStore) ([]store.Hook, error) {
	st := s.hooks
	now := time.Now()
	st.mu.Lock()
	live, read, forgot := st.live, st.read, st.forgot
	st.mu.Unlock()
	if !read.IsZero() && now.Sub(read) < hooksRefresh {
		return live, nil
	}
	live, err := hs.LiveHooks(ctx)
	if err != nil {
		return nil, err
	}
	st.mu.Lock()
	if st.forgot == forgot {
		st.live, st.read = live, now
	}
	st.mu.Unlock()
	return live, nil
}

// WarnDue queues the warning of every hook whose race's deadline is as
// near as the hook asked to be told; it says how many it queued. Each
// (hook, turn, deadline) is queued once, whichever instance comes first: a
// deadline extended is warned of again.
func (s *Server) WarnDue(ctx context.Context) (int, error) {
	hs, err := s.hookStore()
	if err != nil {
		return 0, err
	}
	live, err := s.liveHooks(ctx, hs)
	if err != nil {
		return 0, err
	}
	now := s.host.Now()
	s.hooks.forgetWarned(now)
	n := 0
	var errs []error // a race that fails holds back no other's warning
	for _, h := range live {
		if !h.Wants(store.EventWarning) || h.WarnBefore <= 0 {
			continue
		}
		dl, ok := s.deadlines.of(h.Race)
		if !ok || now.Before(dl.Add(-h.WarnBefore)) || !now.Before(dl) || s.hooks.isWarned(h.ID, dl) {
			continue
		}
		p, err := s.host.Load(ctx, h.Race)
		if err != nil {
			errs = append(errs, fmt.Errorf("race %s: %w", h.Race, err))
			continue
		}
		if p.Schedule.Deadline == nil || !p.Schedule.Deadline.Equal(dl) || p.State.Over() {
			continue // the index is behind; the next look sees it right
		}
		queued, err := hs.Warn(ctx, store.Delivery{Hook: h.ID, Race: h.Race, Turn: p.Turn(), Deadline: &dl, Created: now, Due: now})
		if err != nil {
			errs = append(errs, fmt.Errorf("race %s: %w", h.Race, err))
			continue
		}
		s.hooks.setWarned(h.ID, dl)
		if queued {
			n++
		}
	}
	return n, errors.Join(errs...)
}

// forgetWarned forgets the warnings of deadlines gone by.
func (hs *hookState) forgetWarned(now time.Time) {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	for w := range hs.warned {
		if !now.Before(w.deadline) {
			delete(hs.warned, w)
		}
	}
}

// isWarned says whether hook's warning of deadline has been queued (by this
// instance).
func (hs *hookState) isWarned(hook int64, deadline time.Time) bool {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	return hs.warned[warned{hook, deadline}]
}

func (hs *hookState) setWarned(hook int64, deadline time.Time) {
	hs.mu.Lock()
	hs.warned[warned{hook, deadline}] = true
	hs.mu.Unlock()
}

// DeliverDue claims the deliveries due and sends them, at most one a hook
// (the store hands out a hook's deliveries in order, one at a time); it
// says how many it claimed.
func (s *Server) DeliverDue(ctx context.Context) (int, error) {
	hs, err := s.hookStore()
	if err != nil {
		return 0, err
	}
	now := s.host.Now()
	ds, err := hs.Claim(ctx, s.hooks.claim, now, now.Add(holdFor), claimAtOnce)
	if err != nil {
		return 0, err
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, sendsAtOnce)
	errs := make(chan error, len(ds))
	for _, d := range ds {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := s.deliver(ctx, hs, d); err != nil {
				errs <- fmt.Errorf("delivery %d: %w", d.ID, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		return len(ds), err // the first; the others are like it
	}
	return len(ds), nil
}

// deliver sends d and stores what became of it.
func (s *Server) deliver(ctx context.Context, hs store.HookStore, d store.Delivery) error {
	hooks, err := hs.Hooks(ctx, d.Race)
	if err != nil {
		return err
	}
	var h *store.Hook
	for i := range hooks {
		if hooks[i].ID == d.Hook {
			h = &hooks[i]
		}
	}
	if h == nil || h.Removed != nil {
		return s.record(ctx, hs, d, store.Dropped, "")
	}
	event, body, skip, err := s.payload(ctx, *h, d)
	if skip != "" {
		return s.record(ctx, hs, d, store.Skipped, skip)
	}
	d.Attempts++
	if err != nil {
		return s.retry(ctx, hs, d, "the service could not write the payload: "+err.Error(), 0)
	}
	status, wait, err := s.send(ctx, *h, d, event, body)
	switch {
	case err != nil:
		return s.retry(ctx, hs, d, err.Error(), 0)
	case status >= 200 && status < 300:
		return s.record(ctx, hs, d, store.Delivered, "")
	case status == http.StatusRequestTimeout || status == http.StatusTooEarly || status == http.StatusTooManyRequests || status >= 500:
		return s.retry(ctx, hs, d, fmt.Sprintf("the receiver answered %d %s", status, http.StatusText(status)), wait)
	default:
		return s.record(ctx, hs, d, store.GaveUp, fmt.Sprintf("the receiver refused it: %d %s", status, http.StatusText(status)))
	}
}

// record stores what became of d: its outcome (now), or, with none, that it
// is to be tried again at d.Due; why is the last attempt's failure.
func (s *Server) record(ctx context.Context, hs store.HookStore, d store.Delivery, outcome, why string) error {
	if r := []rune(why); len(r) > maxErrorText {
		why = string(r[:maxErrorText]) + "…"
	}
	d.Error = strings.ToValidUTF8(why, "?")
	if outcome != "" {
		now := s.host.Now()
		d.Outcome, d.Done = outcome, &now
	}
	_, err := hs.Settle(ctx, d)
	return err
}

// retry stores d to be tried again after its backoff (or the receiver's
// Retry-After, if later), or gives it up after maxAttempts, or when the
// deadline it warns of will have passed by then.
func (s *Server) retry(ctx context.Context, hs store.HookStore, d store.Delivery, why string, wait time.Duration) error {
	back := min(firstBackoff<<min(d.Attempts-1, 20), maxBackoff)
	d.Due = s.host.Now().Add(max(back, min(wait, 6*time.Hour)))
	switch {
	case d.Attempts >= maxAttempts:
		return s.record(ctx, hs, d, store.GaveUp, fmt.Sprintf("%s (attempt %d of %d; no more)", why, d.Attempts, maxAttempts))
	case d.Kind == store.DeliverWarning && d.Deadline != nil && !d.Due.Before(*d.Deadline):
		return s.record(ctx, hs, d, store.GaveUp, why+" (and the deadline will have passed by the next attempt)")
	}
	return s.record(ctx, hs, d, "", why)
}

// payload is what d tells h: the event's name and the JSON body; or why
// nothing is to be sent (skip).
func (s *Server) payload(ctx context.Context, h store.Hook, d store.Delivery) (event string, body []byte, skip string, err error) {
	a, err := s.access.Access(ctx, d.Race)
	if err != nil {
		return "", nil, "", err
	}
	out := hookPayload{Delivery: d.ID, Race: d.Race, Turn: d.Turn}
	if s.hookCfg.PublicURL != "" {
		out.RaceURL = s.hookCfg.PublicURL + "/api/races/" + url.PathEscape(d.Race)
	}
	switch d.Kind {
	case store.DeliverWarning:
		if !h.Wants(store.EventWarning) {
			return "", nil, "the webhook does not ask for deadline warnings", nil
		}
		p, err := s.host.Load(ctx, d.Race)
		if err != nil {
			return "", nil, "", err
		}
		if p.State.Over() || p.Turn() != d.Turn || p.Schedule.Deadline == nil || d.Deadline == nil || !p.Schedule.Deadline.Equal(*d.Deadline) {
			return "", nil, "the turn was resolved, or its deadline moved, before the warning went out", nil
		}
		st, err := s.standingOf(ctx, d.Race)
		if err != nil {
			return "", nil, "", err
		}
		w := p.View(race.Spectator)
		out.Event, out.Ruleset, out.Deadline, out.At = store.EventWarning, p.Race.Ruleset, d.Deadline, d.Created
		unwaited := st.unwaited()
		for _, seat := range slices.Sorted(maps.Keys(w.OrdersIn)) {
			if !w.OrdersIn[seat] && !unwaited[seat] { // a removed racer, or the cruise bot, is not waited for
				out.Waiting = append(out.Waiting, race.NameOf(p.State.Seats(), seat))
			}
		}
		out.Title = fmt.Sprintf("%s: %s %d is due %s", d.Race, p.Ruleset.Game().Words.Turn, d.Turn, host.Stamp(*d.Deadline))
	default:
		p, err := s.host.LoadAt(ctx, d.Race, d.Turn)
		if err != nil {
			return "", nil, "", err
		}
		over := p.State.Over()
		switch {
		case over && h.Wants(store.EventFinished):
			out.Event = store.EventFinished
		case h.Wants(store.EventTurn):
			out.Event = store.EventTurn
		default:
			return "", nil, "the webhook asks for neither turn_resolved nor (at the race's end) race_finished", nil
		}
		if err := s.host.WithBefore(ctx, p); err != nil {
			return "", nil, "", err
		}
		w := p.View(race.Spectator)
		picture := ""
		if a.Public && s.hookCfg.PublicURL != "" {
			out.Picture = s.hookCfg.PublicURL + pictureURL(d.Race, d.Turn)
			picture = out.Picture
		}
		post, err := host.Post(w, d.Turn, "markdown", picture)
		if err != nil {
			return "", nil, "", err
		}
		out.Ruleset, out.Over, out.Post, out.Title, out.At = p.Race.Ruleset, over, post, host.Title(w, d.Turn), d.Created
	}
	var msg any = out
	if h.Format == store.HookDiscord {
		msg = discordOf(out)
	}
	body, err = json.Marshal(msg)
	return out.Event, body, "", err
}

// hookPayload is a webhook's JSON: what a forum bot needs to post the turn.
type hookPayload struct {
	Event    string     `json:"event"`
	Delivery int64      `json:"delivery"` // the same on a delivery sent again
	Race     string     `json:"race"`
	Ruleset  string     `json:"ruleset"`
	Turn     int        `json:"turn"`
	Over     bool       `json:"over,omitempty"`
	Deadline *time.Time `json:"deadline,omitempty"`    // deadline_warning: when the turn resolves
	Waiting  []string   `json:"waiting_for,omitempty"` // deadline_warning: the racers whose orders are not in
	Title    string     `json:"title"`
	Post     string     `json:"post,omitempty"` // the turn summary post, in Markdown, as a spectator sees it
	Picture  string     `json:"picture,omitempty"`
	RaceURL  string     `json:"race_url,omitempty"`
	At       time.Time  `json:"at"` // when the turn was resolved, or the warning queued
}

// discordOf is p as a Discord webhook's message: the title as its content
// and the post in an embed with the picture. No mention in a racer's name
// pings anyone.
func discordOf(p hookPayload) map[string]any {
	embed := map[string]any{"title": clip(p.Title, 256), "timestamp": p.At.Format(time.RFC3339)}
	if p.RaceURL != "" {
		embed["url"] = p.RaceURL
	}
	switch {
	case p.Post != "":
		embed["description"] = clip(p.Post, discordDescription)
	case p.Event == store.EventWarning && len(p.Waiting) > 0:
		embed["description"] = clip("Waiting for orders from: "+strings.Join(p.Waiting, ", "), discordDescription)
	case p.Event == store.EventWarning:
		embed["description"] = "Every racer's orders are in."
	}
	if p.Picture != "" {
		embed["image"] = map[string]any{"url": p.Picture}
	}
	content := p.Title
	if p.Event == store.EventFinished {
		content += " (the race is over)"
	}
	return map[string]any{
		"username":         "pitwall",
		"content":          clip(content, discordContent),
		"embeds":           []any{embed},
		"allowed_mentions": map[string]any{"parse": []string{}},
	}
}

// clip cuts s to at most n characters, saying so at its end.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	const more = "\n… (cut; the whole post is on the service)"
	return string(r[:n-len([]rune(more))]) + more
}

// send posts body to h, signed with its secret: X-Pitwall-Signature is
// "sha256=" and the hex HMAC-SHA256 of the body. It returns the answer's
// status and Retry-After.
func (s *Server) send(ctx context.Context, h store.Hook, d store.Delivery, event string, body []byte) (int, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.URL, bytes.NewReader(body))
	if err != nil {
		return 0, 0, err
	}
	mac := hmac.New(sha256.New, []byte(h.Secret))
	mac.Write(body)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "pitwall-webhook/1")
	req.Header.Set("X-Pitwall-Event", event)
	req.Header.Set("X-Pitwall-Delivery", strconv.FormatInt(d.ID, 10))
	req.Header.Set("X-Pitwall-Signature", "sha256="+hex.EncodeToString(mac.Sum(nil)))
	res, err := s.hookCfg.Client.Do(req)
	if err != nil {
		return 0, 0, err
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10)) // lets the connection be used again
	var wait time.Duration
	if secs, err := strconv.Atoi(res.Header.Get("Retry-After")); err == nil && secs > 0 {
		wait = time.Duration(secs) * time.Second
	}
	return res.StatusCode, wait, nil
}
