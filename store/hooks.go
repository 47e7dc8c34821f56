package store

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Webhooks. A race's host asks the service to tell another program (a
// forum bot, a Discord channel) when a turn is resolved, when a deadline
// nears and when the race is over. What is to be told is written to an
// outbox: a resolved turn's delivery by the database itself, in the
// transaction that stores the resolve (a trigger on the log), so a turn is
// never resolved without its deliveries queued, nor queued without being
// resolved. Deliveries are sent later, apart from every resolution, and
// retried until they are taken or given up.

// The formats a hook's payload takes.
const (
	HookJSON    = "json"    // pitwall's own JSON
	HookDiscord = "discord" // a Discord webhook's JSON (content and an embed)
)

// The events a hook may ask for.
const (
	EventTurn     = "turn_resolved"
	EventWarning  = "deadline_warning"
	EventFinished = "race_finished"
)

// Events lists every event a hook may ask for.
var Events = []string{EventTurn, EventWarning, EventFinished}

// The kinds of Delivery in the outbox: a resolved turn (told as
// turn_resolved, or as race_finished when it ended the race) and a
// deadline's warning.
const (
	DeliverTurn    = "turn"
	DeliverWarning = "warning"
)

// The outcomes of a Delivery; "" while it is pending.
const (
	Delivered = "delivered" // the receiver took it (a 2xx answer)
	GaveUp    = "failed"    // refused for good, or every attempt failed
	Skipped   = "skipped"   // the hook does not ask for what it would tell
	Dropped   = "removed"   // the hook was removed before it was sent
)

// Hook is a race's webhook.
type Hook struct {
	ID         int64         `json:"id"` // given by the store
	Race       string        `json:"race"`
	URL        string        `json:"url"`
	Format     string        `json:"format"`
	Events     []string      `json:"events"`
	WarnBefore time.Duration `json:"-"` // how long before a deadline its warning goes out
	Secret     string        `json:"-"` // signs each payload (HMAC-SHA256)
	Key        string        `json:"-"` // the client's idempotency key, unique in the race
	Created    time.Time     `json:"created"`
	Removed    *time.Time    `json:"removed,omitempty"`
}

// Wants says whether h asks for event.
func (h Hook) Wants(event string) bool { return slices.Contains(h.Events, event) }

// Same says whether h and g say the same thing (a repeat of a keyed write).
func (h Hook) Same(g Hook) bool {
	return h.Race == g.Race && h.URL == g.URL && h.Format == g.Format && slices.Equal(h.Events, g.Events) &&
		h.WarnBefore == g.WarnBefore && h.Key == g.Key
}

// Delivery is one thing to tell one hook, as the outbox keeps it.
type Delivery struct {
	ID       int64      `json:"id"` // given by the store
	Hook     int64      `json:"hook"`
	Race     string     `json:"race"`
	Kind     string     `json:"kind"` // DeliverTurn or DeliverWarning
	Turn     int        `json:"turn"`
	Seq      int        `json:"seq,omitempty"`      // DeliverTurn: the resolve's log entry
	Deadline *time.Time `json:"deadline,omitempty"` // DeliverWarning: the deadline warned of
	Created  time.Time  `json:"created"`
	Due      time.Time  `json:"due"` // when it is next tried
	Attempts int        `json:"attempts"`
	Outcome  string     `json:"outcome"` // "" while pending
	Done     *time.Time `json:"done,omitempty"`
	Error    string     `json:"error,omitempty"` // why the last attempt failed
	// Claim names the holder that took it to send (Claim); a Settle by
	// anyone else changes nothing.
	Claim string `json:"-"`
}

// HookStore is an AccessStore that also keeps races' webhooks and their
// outbox. Errors wrap ErrNotFound and ErrExists as Store's do.
type HookStore interface {
	AccessStore
	// AddHook stores a hook of h.Race (CheckHook) and returns it with its
	// ID. A key the race holds already gives back the stored hook if it
	// says the same thing, and an error wrapping ErrExists if not. A race
	// not stored gives ErrNotFound.
	AddHook(ctx context.Context, h Hook) (Hook, error)
	// RemoveHook marks race id's hook removed at the time given: nothing is
	// queued for it from then on, and what is pending for it is dropped. A
	// second removal keeps the first's time; ErrNotFound when the race has
	// no such hook.
	RemoveHook(ctx context.Context, id string, hook int64, at time.Time) error
	// Hooks lists race id's hooks, removed ones too, in the order they were
	// made (none for a race not stored).
	Hooks(ctx context.Context, id string) ([]Hook, error)
	// LiveHooks lists the hooks not removed, of every race.
	LiveHooks(ctx context.Context) ([]Hook, error)
	// Warn queues a deadline's warning for one hook (d.Hook, d.Race,
	// d.Turn, d.Deadline, d.Created, due at d.Due), unless that hook has
	// one for that turn and deadline already or has been removed; it says
	// whether it queued one.
	Warn(ctx context.Context, d Delivery) (bool, error)
	// Claim takes up to n pending deliveries due at now that no one holds,
	// for claim, until the time given: another Claim passes them over
	// until then. Oldest due first, and only the first pending delivery of
	// each hook: a hook is told of things in the order they were queued,
	// one at a time, and one that fails holds back what follows it.
	Claim(ctx context.Context, claim string, now, until time.Time, n int) ([]Delivery, error)
	// Settle stores what became of a delivery claimed by d.Claim: its
	// Outcome and Done, or (Outcome "") its next Due; its Attempts and
	// Error. It says whether d.Claim still held it (if not, nothing is
	// stored: someone else has it).
	Settle(ctx context.Context, d Delivery) (bool, error)
	// Deliveries lists race id's latest n deliveries, newest first.
	Deliveries(ctx context.Context, id string, n int) ([]Delivery, error)
	// Prune deletes up to n deliveries that are done (they have an
	// outcome) and were done before the time given, oldest done first,
	// save each race's keep latest (so Deliveries of up to keep shows
	// what it showed); it says how many it deleted. A delivery still to
	// be sent is never deleted.
	Prune(ctx context.Context, before time.Time, keep, n int) (int, error)
}

// MaxHookURL is the longest URL a hook may have.
const MaxHookURL = 2048

// CheckHook says what is wrong with a hook to store, if anything.
func CheckHook(h Hook) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("race %q: a webhook: "+format, append([]any{h.Race}, args...)...)
	}
	if h.Race == "" {
		return errors.New("a webhook names no race")
	}
	if err := CheckHookURL(h.URL); err != nil {
		return fail("%w", err)
	}
	switch {
	case h.Format != HookJSON && h.Format != HookDiscord:
		return fail("its format is %s or %s; not %q", HookJSON, HookDiscord, h.Format)
	case h.WarnBefore < 0:
		return fail("a warning %s before the deadline: give a length of time from 0", h.WarnBefore)
	case len(h.Secret) < 32:
		return fail("its secret is too short to sign with (%d characters; 32 at the least)", len(h.Secret))
	}
	if err := CheckHookEvents(h.Events); err != nil {
		return fail("%w", err)
	}
	for what, text := range map[string]string{"its secret": h.Secret, "its key": h.Key} {
		if err := CheckText(what, text); err != nil {
			return fail("%w", err)
		}
	}
	return CheckTime("its time", h.Created)
}

// CheckHookEvents says what is wrong with the events a hook asks for: some
// of Events, each once.
func CheckHookEvents(events []string) error {
	if len(events) == 0 {
		return fmt.Errorf("it asks for no event; ask for some of %s", strings.Join(Events, ", "))
	}
	for i, e := range events {
		if !slices.Contains(Events, e) || slices.Contains(events[:i], e) {
			return fmt.Errorf("no event %q, or it is named twice; the events are %s", e, strings.Join(Events, ", "))
		}
	}
	return nil
}

// CheckHookURL says what is wrong with a hook's URL: it is an absolute
// http or https URL of at most MaxHookURL characters, with no user or
// password in it (a receiver's secret goes in its path or query, as
// Discord's does).
func CheckHookURL(raw string) error {
	if len(raw) > MaxHookURL {
		return fmt.Errorf("its URL is %d characters long; %d at the most", len(raw), MaxHookURL)
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return fmt.Errorf("its URL %q does not read as one: %v", raw, err)
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("its URL is an http:// or https:// URL; not %q", raw)
	case u.Host == "" || u.Hostname() == "":
		return fmt.Errorf("its URL %q names no host", raw)
	case u.User != nil:
		return errors.New("its URL carries a user or password; put a receiver's secret in its path or query")
	}
	return nil
}

// CheckDelivery says what is wrong with a warning to queue or an outcome to
// store.
func CheckDelivery(d Delivery) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("race %q: delivery %d: "+format, append([]any{d.Race, d.ID}, args...)...)
	}
	switch {
	case d.Kind != DeliverTurn && d.Kind != DeliverWarning:
		return fail("its kind is %s or %s; not %q", DeliverTurn, DeliverWarning, d.Kind)
	case d.Outcome != "" && d.Outcome != Delivered && d.Outcome != GaveUp && d.Outcome != Skipped && d.Outcome != Dropped:
		return fail("no outcome %q", d.Outcome)
	case (d.Outcome == "") == (d.Done != nil):
		return fail("a delivery is done (with its time) once it has an outcome, and only then")
	case d.Attempts < 0:
		return fail("%d attempts", d.Attempts)
	case (d.Kind == DeliverWarning) != (d.Deadline != nil):
		return fail("a warning names the deadline it warns of, and only a warning names one")
	}
	if err := CheckText("its error", d.Error); err != nil {
		return fail("%w", err)
	}
	for what, t := range map[string]*time.Time{"its creation": &d.Created, "its due time": &d.Due, "its time done": d.Done, "its deadline": d.Deadline} {
		if t != nil {
			if err := CheckTime(what, *t); err != nil {
				return fail("%w", err)
			}
		}
	}
	return nil
}

// HookToAdd is h checked (CheckHook) and as a store stores it: its time in
// UTC, as it is read back, and not removed.
func HookToAdd(h Hook) (Hook, error) {
	if err := CheckHook(h); err != nil {
		return h, err
	}
	h.Created = h.Created.UTC()
	h.Removed = nil
	return h, nil
}

// SameHook is what a store answers to a keyed hook when the key is stored
// already: *h becomes the stored hook if it says the same thing; otherwise
// the answer is an error wrapping ErrExists.
func SameHook(h *Hook, stored Hook) error {
	if !h.Same(stored) {
		return fmt.Errorf("race %q: the key %q was given already, to another webhook (%d, %s): %w", h.Race, h.Key, stored.ID, stored.URL, ErrExists)
	}
	*h = stored
	return nil
}

// CheckClaim says what is wrong with a claim of n deliveries: it has a
// name and takes at least one.
func CheckClaim(claim string, n int) error {
	if claim == "" || n < 1 {
		return fmt.Errorf("a claim has a name and takes at least one delivery (%q, %d)", claim, n)
	}
	return nil
}

// CheckPrune says what is wrong with a prune keeping keep deliveries a
// race and deleting up to n.
func CheckPrune(keep, n int) error {
	if keep < 0 || n < 1 {
		return fmt.Errorf("pruning the outbox: keep %d and delete %d; keep none or more, delete at least one", keep, n)
	}
	return nil
}
