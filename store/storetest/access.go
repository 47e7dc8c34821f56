package storetest

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"pitwall/race"
	"pitwall/store"
)

// RunAccess runs the conformance suite of store.AccessStore as subtests of
// t; open must give stores that implement it.
func RunAccess(t *testing.T, open Opener) {
	runCases(t, open, []testCase{
		{"CreateWithAccess", testCreateWithAccess},
		{"CreateWithAccessAllOrNone", testCreateWithAccessAllOrNone},
		{"Revoke", testRevoke},
		{"RefusesBadLinks", testRefusesBadLinks},
		{"AccessReopen", testAccessReopen},
		{"Tokens", testTokens},
		{"Controls", testControls},
		{"ControlsOneKey", testControlsOneKey},
		{"InviteLinks", testInviteLinks},
	})
}

// reopenAccess closes s and opens the database it kept, name, again.
func reopenAccess(t *testing.T, h *harness, s store.AccessStore, name string) store.AccessStore {
	t.Helper()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, ok := h.reopen(t, name).(store.AccessStore)
	if !ok {
		t.Fatal("the reopened store is not an AccessStore")
	}
	return s2
}

func hashOf(token string) string {
	b := sha256.Sum256([]byte(token))
	return hex.EncodeToString(b[:])
}

var accessAt = time.Date(2026, 11, 24, 20, 0, 0, 123456000, time.FixedZone("CET", 3600))

func sampleLinks(id string) (store.Access, []store.Token) {
	a := store.Access{Race: id, Public: true, ResolveWhen: store.ResolveWhenAllIn, Created: accessAt}
	return a, []store.Token{
		{Hash: hashOf(id + "host"), Race: id, Role: store.RoleHost, Seat: -1, Created: accessAt},
		{Hash: hashOf(id + "seat0"), Race: id, Role: store.RoleSeat, Seat: 0, Created: accessAt},
		{Hash: hashOf(id + "seat1"), Race: id, Role: store.RoleSeat, Seat: 1, Created: accessAt},
	}
}

// mustServe creates sample race id with its sample access and links.
func mustServe(t *testing.T, s store.AccessStore, id string) (*race.Race, store.Access, []store.Token) {
	t.Helper()
	r := sampleRace(id, 1)
	a, ts := sampleLinks(id)
	if err := s.CreateWithAccess(ctx(t), r, a, ts); err != nil {
		t.Fatalf("CreateWithAccess(%q): %v", id, err)
	}
	return r, a, ts
}

func checkToken(t *testing.T, got, want store.Token) {
	t.Helper()
	if got.Hash != want.Hash || got.Race != want.Race || got.Role != want.Role || got.Seat != want.Seat || got.Racer != want.Racer {
		t.Errorf("link: got %+v, want %+v", got, want)
	}
	checkTime(t, "the link's creation", got.Created, want.Created)
	if (got.Revoked == nil) != (want.Revoked == nil) {
		t.Fatalf("link revoked: got %v, want %v", got.Revoked, want.Revoked)
	}
	if want.Revoked != nil {
		checkTime(t, "the link's revocation", *got.Revoked, *want.Revoked)
	}
}

func testCreateWithAccess(t *testing.T, h *harness) {
	s, _ := freshAs[store.AccessStore](t, h)
	defer s.Close()
	r, a, ts := mustServe(t, s, "served")
	checkRace(t, mustLoad(t, s, r.ID), r)
	got, err := s.Access(ctx(t), r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Race != a.Race || got.Public != a.Public || got.ResolveWhen != a.ResolveWhen {
		t.Errorf("access: got %+v, want %+v", got, a)
	}
	checkTime(t, "the access's creation", got.Created, a.Created)
	for _, want := range ts {
		got, err := s.Token(ctx(t), want.Hash)
		if err != nil {
			t.Fatal(err)
		}
		checkToken(t, got, want)
	}
	if _, err := s.Token(ctx(t), hashOf("nobody")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an unknown link: got %v, want ErrNotFound", err)
	}
	plain := sampleRace("plain", 2)
	mustCreate(t, s, plain)
	if _, err := s.Access(ctx(t), plain.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the access of a race created without: got %v, want ErrNotFound", err)
	}
	more := store.Token{Hash: hashOf("spectator"), Race: r.ID, Role: store.RoleSpectator, Seat: -1, Created: accessAt}
	if err := s.AddTokens(ctx(t), r.ID, []store.Token{more}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Token(ctx(t), more.Hash); err != nil {
		t.Fatal(err)
	} else {
		checkToken(t, got, more)
	}
}

func testCreateWithAccessAllOrNone(t *testing.T, h *harness) {
	s, _ := freshAs[store.AccessStore](t, h)
	defer s.Close()
	first, _, ts := mustServe(t, s, "first")
	// A second race whose links collide with the first's: nothing of it is stored.
	second := sampleRace("second", 2)
	a2, ts2 := sampleLinks(second.ID)
	ts2 = append(ts2, store.Token{Hash: ts[0].Hash, Race: second.ID, Role: store.RoleHost, Seat: -1, Created: accessAt})
	if err := s.CreateWithAccess(ctx(t), second, a2, ts2); !errors.Is(err, store.ErrExists) {
		t.Fatalf("links colliding: got %v, want ErrExists", err)
	}
	if _, err := s.Load(ctx(t), second.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the race whose links collided: got %v, want ErrNotFound (not stored)", err)
	}
	if _, err := s.Token(ctx(t), ts2[0].Hash); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a link of the race not stored: got %v, want ErrNotFound", err)
	}
	if got, err := s.Token(ctx(t), ts[0].Hash); err != nil || got.Race != first.ID {
		t.Errorf("the first race's host link: got %+v, %v", got, err)
	}
	// A race taken: ErrExists, and its links are not stored either.
	again := sampleRace("first", 3)
	a3 := store.Access{Race: again.ID, ResolveWhen: store.ResolveAtDeadline, Created: accessAt}
	extra := store.Token{Hash: hashOf("extra"), Race: again.ID, Role: store.RoleSeat, Created: accessAt}
	if err := s.CreateWithAccess(ctx(t), again, a3, []store.Token{extra}); !errors.Is(err, store.ErrExists) {
		t.Fatalf("a race taken: got %v, want ErrExists", err)
	}
	if _, err := s.Token(ctx(t), extra.Hash); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a link of a race refused: got %v, want ErrNotFound", err)
	}
	// AddTokens: all or none.
	fresh := store.Token{Hash: hashOf("fresh"), Race: first.ID, Role: store.RoleSeat, Seat: 2, Created: accessAt}
	if err := s.AddTokens(ctx(t), first.ID, []store.Token{fresh, ts[1]}); !errors.Is(err, store.ErrExists) {
		t.Fatalf("adding a link stored already: got %v, want ErrExists", err)
	}
	if _, err := s.Token(ctx(t), fresh.Hash); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a link added beside a refused one: got %v, want ErrNotFound", err)
	}
}

func testRevoke(t *testing.T, h *harness) {
	s, _ := freshAs[store.AccessStore](t, h)
	defer s.Close()
	r, _, ts := mustServe(t, s, "revoked")
	at := accessAt.Add(time.Hour)
	if err := s.RevokeToken(ctx(t), r.ID, ts[1].Hash, at); err != nil {
		t.Fatal(err)
	}
	if err := s.RevokeToken(ctx(t), r.ID, ts[1].Hash, at.Add(time.Hour)); err != nil {
		t.Fatalf("a second revocation: %v", err)
	}
	want := ts[1]
	want.Revoked = &at
	got, err := s.Token(ctx(t), ts[1].Hash)
	if err != nil {
		t.Fatal(err)
	}
	checkToken(t, got, want) // the first revocation's time stays
	if got, err := s.Token(ctx(t), ts[2].Hash); err != nil || got.Revoked != nil {
		t.Errorf("the other seat's link: %+v, %v; want it, not revoked", got, err)
	}
	if err := s.RevokeToken(ctx(t), "another", ts[2].Hash, at); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("revoking a link through another race: got %v, want ErrNotFound", err)
	}
	if got, err := s.Token(ctx(t), ts[2].Hash); err != nil || got.Revoked != nil {
		t.Errorf("after revoking it through another race: %+v, %v; want it, not revoked", got, err)
	}
	if err := s.RevokeToken(ctx(t), r.ID, ts[2].Hash, at.Add(time.Nanosecond)); err == nil {
		t.Error("a revocation at a time finer than a microsecond: accepted")
	}
	if got, err := s.Token(ctx(t), ts[2].Hash); err != nil || got.Revoked != nil {
		t.Errorf("after a refused revocation: %+v, %v; want it, not revoked", got, err)
	}
	if err := s.RevokeToken(ctx(t), r.ID, hashOf("nobody"), at); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("revoking an unknown link: got %v, want ErrNotFound", err)
	}
}

func testAccessReopen(t *testing.T, h *harness) {
	s, name := freshAs[store.AccessStore](t, h)
	r, a, ts := mustServe(t, s, "kept")
	at := accessAt.Add(time.Minute)
	if err := s.RevokeToken(ctx(t), r.ID, ts[0].Hash, at); err != nil {
		t.Fatal(err)
	}
	s2 := reopenAccess(t, h, s, name)
	defer s2.Close()
	want := ts[0]
	want.Revoked = &at
	got, err := s2.Token(ctx(t), ts[0].Hash)
	if err != nil {
		t.Fatal(err)
	}
	checkToken(t, got, want)
	if got, err := s2.Access(ctx(t), r.ID); err != nil || got.ResolveWhen != a.ResolveWhen {
		t.Errorf("access after reopening: %+v, %v", got, err)
	}
}

// testRefusesBadLinks: access and links that do not name the race, or name
// a role, seat, hash or time a link cannot have, are refused with nothing
// stored; links for a race not stored give ErrNotFound.
func testRefusesBadLinks(t *testing.T, h *harness) {
	s, _ := freshAs[store.AccessStore](t, h)
	defer s.Close()
	r := sampleRace("links", 1)
	a, ts := sampleLinks(r.ID)
	bad := map[string]func(a *store.Access, t *store.Token){
		"a link of another race":       func(_ *store.Access, t *store.Token) { t.Race = "other" },
		"an access of another race":    func(a *store.Access, _ *store.Token) { a.Race = "other" },
		"an unknown role":              func(_ *store.Access, t *store.Token) { t.Role = "owner" },
		"a seat link without its seat": func(_ *store.Access, t *store.Token) { t.Role, t.Seat = store.RoleSeat, -1 },
		"a host link with a seat":      func(_ *store.Access, t *store.Token) { t.Role, t.Seat = store.RoleHost, 3 },
		"a seat link with seat and racer": func(_ *store.Access, t *store.Token) {
			t.Role, t.Seat, t.Racer = store.RoleSeat, 0, "Red"
		},
		"a spectator link naming a racer": func(_ *store.Access, t *store.Token) {
			t.Role, t.Seat, t.Racer = store.RoleSpectator, -1, "Red"
		},
		"an invite with a seat":        func(_ *store.Access, t *store.Token) { t.Role, t.Seat = store.RoleInvite, 0 },
		"a racer's name with a NUL":    func(_ *store.Access, t *store.Token) { t.Role, t.Seat, t.Racer = store.RoleSeat, -1, "R\x00d" },
		"a seat below -1":              func(_ *store.Access, t *store.Token) { t.Role, t.Seat, t.Racer = store.RoleSeat, -2, "Red" },
		"a hash that is not SHA-256":   func(_ *store.Access, t *store.Token) { t.Hash = strings.Repeat("Z", 64) },
		"an upper-case hash":           func(_ *store.Access, t *store.Token) { t.Hash = strings.ToUpper(t.Hash) },
		"a link revoked at its making": func(_ *store.Access, t *store.Token) { t.Revoked = &accessAt },
		"a nanosecond link":            func(_ *store.Access, t *store.Token) { t.Created = t.Created.Add(time.Nanosecond) },
		"a nanosecond access":          func(a *store.Access, _ *store.Token) { a.Created = a.Created.Add(time.Nanosecond) },
		"an unknown resolve_when":      func(a *store.Access, _ *store.Token) { a.ResolveWhen = "soon" },
	}
	for what, spoil := range bad {
		a2, ts2 := a, slices.Clone(ts)
		spoil(&a2, &ts2[0])
		if err := s.CreateWithAccess(ctx(t), r, a2, ts2); err == nil {
			t.Errorf("%s: the race was created", what)
		}
	}
	if _, err := s.Load(ctx(t), r.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a race refused for its links: got %v, want ErrNotFound (not stored)", err)
	}
	if err := s.CreateWithAccess(ctx(t), r, a, ts); err != nil {
		t.Fatal(err)
	}
	spy := store.Token{Hash: hashOf("spy"), Race: "other", Role: store.RoleHost, Seat: -1, Created: accessAt}
	if err := s.AddTokens(ctx(t), r.ID, []store.Token{spy}); err == nil {
		t.Error("adding a link that names another race: accepted")
	}
	if _, err := s.Token(ctx(t), spy.Hash); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the link naming another race: got %v, want ErrNotFound (not stored)", err)
	}
	lost := store.Token{Hash: hashOf("lost"), Race: "nowhere", Role: store.RoleHost, Seat: -1, Created: accessAt}
	if err := s.AddTokens(ctx(t), "nowhere", []store.Token{lost}); !errors.Is(err, store.ErrNotFound) || !strings.Contains(err.Error(), "nowhere") {
		t.Errorf("links for a race not stored: got %v, want ErrNotFound naming the race", err)
	}
}

// testInviteLinks: a race that takes its racers by invite keeps that in its
// access; its invite link and a racer's link made before the start (which
// names its racer, not a seat) come back as they were stored, also after
// the store is opened again.
func testInviteLinks(t *testing.T, h *harness) {
	s, name := freshAs[store.AccessStore](t, h)
	r := sampleRace("invited", 1)
	a := store.Access{Race: r.ID, Public: false, ResolveWhen: store.ResolveAtDeadline, Invite: true, Created: accessAt}
	ts := []store.Token{
		{Hash: hashOf("invited host"), Race: r.ID, Role: store.RoleHost, Seat: -1, Created: accessAt},
		{Hash: hashOf("invited invite"), Race: r.ID, Role: store.RoleInvite, Seat: -1, Created: accessAt},
		{Hash: hashOf("invited Ann"), Race: r.ID, Role: store.RoleSeat, Seat: -1, Racer: "Ann Ø", Created: accessAt},
	}
	if err := s.CreateWithAccess(ctx(t), r, a, ts); err != nil {
		t.Fatal(err)
	}
	later := store.Token{Hash: hashOf("invited Bob"), Race: r.ID, Role: store.RoleSeat, Seat: -1, Racer: "Bob", Created: accessAt.Add(time.Minute)}
	if err := s.AddTokens(ctx(t), r.ID, []store.Token{later}); err != nil {
		t.Fatal(err)
	}
	mustServe(t, s, "plain") // a race not by invite says so
	if got, err := s.Access(ctx(t), "plain"); err != nil || got.Invite {
		t.Errorf("a race not by invite: %+v, %v", got, err)
	}
	s = reopenAccess(t, h, s, name)
	defer s.Close()
	got, err := s.Access(ctx(t), r.ID)
	if err != nil || !got.Invite || got.Public {
		t.Errorf("an invite race's access: %+v, %v; want invite and private", got, err)
	}
	ts = append(ts, later)
	for _, want := range ts {
		got, err := s.Token(ctx(t), want.Hash)
		if err != nil {
			t.Fatal(err)
		}
		checkToken(t, got, want)
	}
	listed, err := s.Tokens(ctx(t), r.ID)
	if err != nil || len(listed) != len(ts) {
		t.Fatalf("the invite race's links: %+v, %v; want %d", listed, err, len(ts))
	}
	for _, got := range listed {
		i := slices.IndexFunc(ts, func(x store.Token) bool { return x.Hash == got.Hash })
		if i < 0 {
			t.Fatalf("an unknown link listed: %+v", got)
		}
		checkToken(t, got, ts[i])
	}
	if err := s.RevokeToken(ctx(t), r.ID, ts[1].Hash, accessAt.Add(time.Hour)); err != nil {
		t.Fatalf("revoking the invite: %v", err)
	}
	if got, err := s.Token(ctx(t), ts[1].Hash); err != nil || got.Revoked == nil || got.Role != store.RoleInvite {
		t.Errorf("the revoked invite: %+v, %v", got, err)
	}
}
