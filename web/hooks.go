package web

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"pitwall/store"
)

// A race's webhooks, as the host makes, lists and removes them. What they
// are told is queued in the store's outbox (store.HookStore) and sent by
// RunHooks (deliver.go).

// The range of a hook's warning before a deadline, and its default.
const (
	MinWarn     = time.Minute
	MaxWarn     = 7 * 24 * time.Hour
	DefaultWarn = 12 * time.Hour
)

// deliveriesShown is how many of a race's latest deliveries its hooks'
// listing shows.
const deliveriesShown = 50

// hookBody is POST /api/races/{id}/hooks.
type hookBody struct {
	URL        string   `json:"url"`
	Format     string   `json:"format"`
	Events     []string `json:"events"`
	WarnBefore string   `json:"warn_before"`
	Key        string   `json:"key"`
}

// HookShown is a hook as the API shows it: never its secret.
type HookShown struct {
	ID         int64      `json:"id"`
	URL        string     `json:"url"`
	Format     string     `json:"format"`
	Events     []string   `json:"events"`
	WarnBefore string     `json:"warn_before"`
	Created    time.Time  `json:"created"`
	Removed    *time.Time `json:"removed,omitempty"`
}

func showHook(h store.Hook) HookShown {
	return HookShown{ID: h.ID, URL: h.URL, Format: h.Format, Events: h.Events, WarnBefore: shortDuration(h.WarnBefore), Created: h.Created, Removed: h.Removed}
}

// shortDuration is d as a host would write it: "12h", "1h30m", not
// "12h0m0s".
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// hookStore is the server's store as a HookStore, or the refusal to say a
// store without one cannot keep webhooks.
func (s *Server) hookStore() (store.HookStore, error) {
	hs, ok := s.host.Store.(store.HookStore)
	if !ok {
		return nil, &apiError{Msg: "this service's store keeps no webhooks", Code: "no_webhooks"}
	}
	return hs, nil
}

func (s *Server) addHook(w http.ResponseWriter, r *http.Request) {
	var b hookBody
	id, ok := s.hostBody(w, r, "a webhook", "only the race's host adds webhooks", &b)
	if !ok {
		return
	}
	h, err := s.checkHookBody(id, b)
	if err == nil {
		err = checkKey(b.Key)
	}
	var hs store.HookStore
	if err == nil {
		hs, err = s.hookStore()
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	got, err := hs.AddHook(r.Context(), h)
	if errors.Is(err, store.ErrExists) {
		err = &apiError{Msg: err.Error(), Field: "key", Code: "key_reused"}
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.hooks.forget()
	// The secret is shown to the host, who gives it to the receiver: it
	// checks each payload's signature with it.
	writeJSON(w, http.StatusCreated, map[string]any{"ok": true, "race": id, "hook": showHook(got), "secret": got.Secret})
}

// checkHookBody reads a hook's request, or says what is wrong with it.
func (s *Server) checkHookBody(id string, b hookBody) (store.Hook, error) {
	bad := func(field, format string, args ...any) error {
		return &apiError{Msg: fmt.Sprintf(format, args...), Field: field, Code: "bad_input"}
	}
	h := store.Hook{Race: id, URL: b.URL, Format: b.Format, Events: b.Events, WarnBefore: DefaultWarn, Key: b.Key, Created: s.host.Now()}
	if h.Format == "" {
		h.Format = store.HookJSON
	}
	if h.Events == nil {
		h.Events = store.Events
	}
	if b.WarnBefore != "" {
		d, err := time.ParseDuration(b.WarnBefore)
		if err != nil || d < MinWarn || d > MaxWarn {
			return h, bad("warn_before", "warn_before is a length of time from 1m to 168h (a week), such as \"12h\"; not %q", b.WarnBefore)
		}
		h.WarnBefore = d
	}
	secret := make([]byte, 32)
	_, _ = rand.Read(secret) // crypto/rand never fails on a supported system
	h.Secret = hex.EncodeToString(secret)
	if b.URL == "" {
		return h, bad("url", "give the URL to send to: \"url\": \"https://...\"")
	}
	if err := store.CheckHookURL(b.URL); err != nil {
		return h, bad("url", "a webhook's URL: %v", err)
	}
	if err := s.hookTarget(b.URL); err != nil {
		return h, bad("url", "%v", err)
	}
	if h.Format != store.HookJSON && h.Format != store.HookDiscord {
		return h, bad("format", "format is %s or %s; not %q", store.HookJSON, store.HookDiscord, h.Format)
	}
	if err := store.CheckHookEvents(h.Events); err != nil {
		return h, bad("events", "a webhook's events: %v", err)
	}
	if err := store.CheckHook(h); err != nil {
		return h, bad("key", "%v", err) // all else is checked above or the service's own
	}
	return h, nil
}

// hookTarget refuses a URL whose host is an address on this machine or a
// private network, unless the service allows them (ConfigureHooks): a
// host's webhook must not make the service a way into its own network.
// Names are looked at again as each delivery dials (guardDial), as a name
// may point anywhere by then.
func (s *Server) hookTarget(raw string) error {
	if s.hookCfg.AllowPrivate {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return err // CheckHookURL has read it
	}
	name := u.Hostname()
	if name == "localhost" || strings.HasSuffix(name, ".localhost") {
		return fmt.Errorf("a webhook goes to another machine on the internet; not to %s", name)
	}
	if ip, err := netip.ParseAddr(name); err == nil && !publicAddr(ip) {
		return fmt.Errorf("a webhook goes to a public address; %s is on this machine or a private network", name)
	}
	return nil
}

// publicAddr says whether ip is an address a webhook may go to.
func publicAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	return ip.IsValid() && !ip.IsLoopback() && !ip.IsPrivate() && !ip.IsLinkLocalUnicast() && !ip.IsLinkLocalMulticast() &&
		!ip.IsInterfaceLocalMulticast() && !ip.IsMulticast() && !ip.IsUnspecified() &&
		!netip.MustParsePrefix("100.64.0.0/10").Contains(ip) // carrier-grade NAT, private too
}

func (s *Server) listHooks(w http.ResponseWriter, r *http.Request) {
	id, ok := s.hostOnly(w, r, "listing the webhooks", "only the race's host sees its webhooks")
	if !ok {
		return
	}
	hs, err := s.hookStore()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	list, err := hs.Hooks(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	ds, err := hs.Deliveries(r.Context(), id, deliveriesShown)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out := make([]HookShown, len(list))
	for i, h := range list {
		out[i] = showHook(h)
	}
	if ds == nil {
		ds = []store.Delivery{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"race": id, "hooks": out, "deliveries": ds})
}

func (s *Server) removeHook(w http.ResponseWriter, r *http.Request) {
	id, ok := s.hostOnly(w, r, "removing a webhook", "only the race's host removes its webhooks")
	if !ok {
		return
	}
	n, err := strconv.ParseInt(r.PathValue("hook"), 10, 64)
	if err != nil || n < 1 {
		s.fail(w, r, &apiError{Msg: fmt.Sprintf("a webhook is named by its id, a number from 1 (GET /api/races/%s/hooks lists them); not %q", id, r.PathValue("hook")), Field: "hook", Code: "no_such_hook"})
		return
	}
	hs, err := s.hookStore()
	if err == nil {
		err = hs.RemoveHook(r.Context(), id, n, s.host.Now())
	}
	if errors.Is(err, store.ErrNotFound) {
		err = &apiError{Msg: fmt.Sprintf("race %s has no webhook %d (GET /api/races/%s/hooks lists them)", id, n, id), Field: "hook", Code: "no_such_hook"}
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.hooks.forget()
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "race": id, "hook": n})
}

// guardAddress refuses to connect to an address a webhook may not go to.
// It runs as a delivery dials, after the name has been looked up: a name
// that points at this machine is refused whatever it pointed at before.
func guardAddress(address string) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || !publicAddr(ip) {
		return fmt.Errorf("webhooks go to public addresses; %s is on this machine or a private network", host)
	}
	return nil
}
