package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"pitwall/host"
	"pitwall/web"
)

// A race by invite hosted from a terminal over --server: made with
// --invite, two joins (and one that withdraws), a start, orders, a removal
// that lets an all_in turn resolve, the bot, a pause, a repeat, an
// extension, links made and revoked, and webhooks; each as the service's
// own answer says.
func TestServerHostControls(t *testing.T) {
	url, db := liveServiceWith(t, nil, func(s *web.Server) { s.ConfigureHooks(web.HookConfig{AllowPrivate: true}) })
	as := func(token string, args ...string) (int, string, string) {
		t.Helper()
		return pitwall(t, append([]string{"--server", url, "--token", token}, args...)...)
	}
	must := func(token string, args ...string) string {
		t.Helper()
		code, out, errs := as(token, args...)
		if code != 0 {
			t.Fatalf("%v: %d %s", args, code, errs)
		}
		return out
	}
	mustJSON := func(token string, args ...string) map[string]any {
		t.Helper()
		code, doc, errs := jsonOf(t, append([]string{"--server", url, "--token", token}, args...)...)
		if code != 0 {
			t.Fatalf("%v: %d %s", args, code, errs)
		}
		return doc
	}
	show := func(token, id string) map[string]any {
		t.Helper()
		return mustJSON(token, "race", "show", id)
	}

	// The race, by invite, with no entrants yet: the host's and the
	// invite's tokens, once.
	code, out, errs := pitwall(t, "--server", url, "race", "new", "--rules", "nascar", "--invite", "--resolve-when", "all_in")
	if code != 0 {
		t.Fatalf("race new --invite: %d %s", code, errs)
	}
	has(t, "race new --invite", out, "with 0 entrants", "by invite: whoever holds the invite's token joins", "\n  host ", "\n  invite ")
	doc := mustJSON("", "race", "new", "--rules", "nascar", "--invite", "--resolve-when", "all_in")
	id, hostTok, invite := doc["id"].(string), doc["host_token"].(string), doc["invite_token"].(string)
	if doc["invite"] != true || invite == "" || hostTok == "" {
		t.Fatalf("race new --invite --json: %v", doc)
	}

	// Joins with the invite's token: the racer's link, shown once.
	out = must(invite, "race", "join", id, "--name", "Red", "--player", "Dale", "--upgrade", "turbo")
	has(t, "a join", out, "Red (Dale) joins "+id+"; 1 entrant now", "shown this once")
	red := strings.TrimSpace(out[strings.LastIndex(out, "\n  ")+3:])
	doc = mustJSON(invite, "race", "join", id, "--racer", "Blue")
	blue := doc["link"].(map[string]any)["token"].(string)
	if doc["name"] != "Blue" || doc["player"] != "Blue" || doc["entrants"] != 2.0 || !strings.Contains(doc["note"].(string), "shown this once") {
		t.Fatalf("join --json: %v", doc)
	}
	green := mustJSON(invite, "race", "join", id, "--name", "Green")["link"].(map[string]any)["token"].(string)
	// The host's token joins no one: the service's 403, its code kept.
	if code, doc, _ := jsonOf(t, "--server", url, "--token", hostTok, "race", "join", id, "--name", "Mallory"); code != 2 || doc["code"] != "forbidden" {
		t.Fatalf("a join with the host's token: %d %v", code, doc)
	}
	// Green leaves with its own token, which opens nothing after.
	has(t, "a withdrawal", must(green, "race", "withdraw", id), "Green leaves "+id+" with Green; 1 link revoked")
	if code, doc, _ := jsonOf(t, "--server", url, "--token", green, "race", "show", id); code != 2 || doc["code"] != "revoked" {
		t.Fatalf("a withdrawn racer's token: %d %v", code, doc)
	}
	sh := show(hostTok, id)
	if sh["started"] != false || len(sh["entrants"].([]any)) != 2 {
		t.Fatalf("the race before its start: %v", sh)
	}
	has(t, "race show before the start", must(hostTok, "race", "show", id), id+": nascar on oval, by invite, not started: 2 entrants so far", "Dale           Red (upgrade turbo)")

	// A racer does not start the race; the host does, once.
	if code, _, errs := as(red, "race", "start", id); code != 2 || !strings.Contains(errs, "only the race's host starts it") {
		t.Fatalf("a start with a racer's token: %d %s", code, errs)
	}
	has(t, "a start", must(hostTok, "race", "start", id), "started "+id+" with 2 racers; turn 1 is open:", "seat 1 Red (Dale)", "seat 2 Blue (Blue)")
	if doc := mustJSON(hostTok, "race", "start", id); doc["now"] != false || len(doc["seats"].([]any)) != 2 {
		t.Fatalf("a second start: %v", doc)
	}
	// After the start no one joins, and a racer does not withdraw.
	if code, doc, _ := jsonOf(t, "--server", url, "--token", invite, "race", "join", id, "--name", "Late"); code != 2 || doc["code"] != "race_started" {
		t.Fatalf("a join after the start: %d %v", code, doc)
	}

	// Red's orders are in; Blue's never come: removing Blue resolves the
	// all_in turn.
	must(red, "orders", "submit", id, "Red", "AM")
	if show(hostTok, id)["turn"] != 1.0 {
		t.Fatal("turn 1 resolved with only Red's orders in")
	}
	out = must(hostTok, "race", "remove", id, "Blue")
	has(t, "a removal", out, "removed Blue (seat 2) from "+id, "1 link revoked", "turn 2 is open now")
	sh = show(hostTok, id)
	if seats := sh["seats"].([]any); sh["turn"] != 2.0 || seats[1].(map[string]any)["removed"] != true {
		t.Fatalf("the race after Blue's removal: %v", sh)
	}
	has(t, "race show after a removal", must(hostTok, "race", "show", id), "removed by the host, played by the game's default for missing orders: 2 Blue",
		"orders in: 0 of 1; waiting for Red\n")
	if code, doc, _ := jsonOf(t, "--server", url, "--token", blue, "race", "show", id); code != 2 || doc["code"] != "revoked" {
		t.Fatalf("a removed racer's token: %d %v", code, doc)
	}

	// The bot, on and off.
	has(t, "bot on", must(hostTok, "race", "bot", id, "2", "on"), "the service's heuristic bot plays Blue (seat 2) of "+id+" from now on")
	if seats := show("", id)["seats"].([]any); seats[1].(map[string]any)["bot"] != true {
		t.Fatalf("seat 2 after bot on: %v", seats[1])
	}
	has(t, "race show with the bot on", must(hostTok, "race", "show", id), "played by the service's bot: 2 Blue (heuristic)")
	if doc := mustJSON(hostTok, "race", "bot", id, "Blue", "on", "--name", "cruise"); doc["name"] != "cruise" || doc["seat"] != 2.0 {
		t.Fatalf("bot on --name cruise --json: %v", doc)
	}
	has(t, "race show with the cruise bot", must(hostTok, "race", "show", id), "played by the service's bot: 2 Blue (cruise)")
	if code, doc, _ := jsonOf(t, "--server", url, "--token", hostTok, "race", "bot", id, "2", "on", "--name", "oracle"); code != 2 || doc["code"] != "bad_input" || doc["field"] != "name" || !strings.Contains(fmt.Sprint(doc["error"]), "cruise, heuristic") {
		t.Fatalf("a bot the game has not: %d %v", code, doc)
	}
	if doc := mustJSON(hostTok, "race", "bot", id, "Blue", "off"); doc["bot"] != false || doc["seat"] != 2.0 {
		t.Fatalf("bot off --json: %v", doc)
	}
	if seats := show("", id)["seats"].([]any); seats[1].(map[string]any)["bot"] == true {
		t.Fatalf("seat 2 after bot off: %v", seats[1])
	}
	if code, doc, _ := jsonOf(t, "--server", url, "--token", hostTok, "race", "bot", id, "--host", "on"); code != 2 || doc["code"] != "bad_input" || doc["field"] != "host" {
		t.Fatalf("the host's settings to a game with none: %d %v", code, doc)
	}

	// Pause and resume.
	has(t, "pause", must(hostTok, "race", "pause", id), id+" is paused")
	if show("", id)["paused"] != true {
		t.Fatal("the race is not paused after race pause")
	}
	has(t, "resume", must(hostTok, "race", "resume", id), id+" runs again")
	if show("", id)["paused"] != false {
		t.Fatal("the race is paused after race resume")
	}

	// A repeat gives the open turn a deadline: 20:00 in Berlin.
	out = must(hostTok, "race", "repeat", id, "--every", "48h", "--at", "20:00", "--zone", "Europe/Berlin")
	has(t, "repeat", out, "gets one 48h after it opens, at 20:00 Europe/Berlin", "turn 2's deadline: ")
	sh = show("", id)
	rp, _ := sh["repeat"].(map[string]any)
	dl, err := time.Parse(time.RFC3339, sh["schedule"].(map[string]any)["deadline"].(string))
	berlin, _ := time.LoadLocation("Europe/Berlin")
	if err != nil || rp["every"] != "48h" || rp["zone"] != "Europe/Berlin" || dl.In(berlin).Format("15:04") != "20:00" {
		t.Fatalf("the race after a repeat: %v %v", sh["repeat"], sh["schedule"])
	}
	// turn extend moves that deadline a day on.
	out = must(hostTok, "turn", "extend", id, "24h")
	if want := "turn 2 of " + id + ": 1 order each; deadline " + host.Stamp(dl.Add(24*time.Hour)) + ";\n"; out != want {
		t.Fatalf("turn extend: %q; want %q", out, want)
	}
	has(t, "the race here after turn extend", localShow(t, db, id), "deadline: "+host.Stamp(dl.Add(24*time.Hour)))
	if code, _, errs := as(red, "turn", "extend", id, "24h"); code != 2 || !strings.Contains(errs, "only the race's host sets its deadlines") {
		t.Fatalf("turn extend with a racer's token: %d %s", code, errs)
	}
	has(t, "repeat --stop", must(hostTok, "race", "repeat", id, "--stop"), id+" repeats no more")
	if show("", id)["repeat"] != nil {
		t.Fatal("the race still repeats after --stop")
	}

	// Links: listed, made, and revoked.
	out = must(hostTok, "race", "links", id)
	has(t, "race links", out, "LINK", "ROLE", "OPENS", "REVOKED", " host ", " invite ", " racer Red ", " racer Blue ")
	if strings.Count(out, "\n") != 6 { // the header, host, invite, Red, Blue, Green
		t.Fatalf("race links:\n%s", out)
	}
	for _, tok := range []string{hostTok, invite, red, blue} {
		if strings.Contains(out, tok) {
			t.Fatalf("race links shows a token:\n%s", out)
		}
	}
	out = must(hostTok, "race", "link", id, "--role", "spectator")
	has(t, "a spectator's link", out, "for the spectator", "shown this once")
	firstBlue := mustJSON(hostTok, "race", "link", id, "--role", "seat", "--seat", "2")["link"].(map[string]any)
	if v := show(firstBlue["token"].(string), id)["viewer"]; v != "seat 2" {
		t.Fatalf("a new link for seat 2 opens %v", v)
	}
	// --replace gives the seat to a new racer: the link made before is revoked.
	doc = mustJSON(hostTok, "race", "link", id, "--role", "seat", "--seat", "Blue", "--replace")
	if rv := doc["revoked"].([]any); len(rv) != 1 || rv[0] != firstBlue["link"] {
		t.Fatalf("a seat's link with --replace revoked %v; want the link made before, %v", rv, firstBlue["link"])
	}
	if code, doc, _ := jsonOf(t, "--server", url, "--token", firstBlue["token"].(string), "race", "show", id); code != 2 || doc["code"] != "revoked" {
		t.Fatalf("a seat's link replaced: %d %v", code, doc)
	}
	l := doc["link"].(map[string]any)
	newBlue, linkID := l["token"].(string), l["link"].(string)
	if l["seat"] != 2.0 || doc["removed"] != nil && doc["removed"] != false {
		t.Fatalf("a new link for seat 2: %v", doc)
	}
	if v := show(newBlue, id)["viewer"]; v != "seat 2" {
		t.Fatalf("the new link for seat 2 opens %v", v)
	}
	if out := must(hostTok, "race", "links", id); !strings.Contains(strings.Join(strings.Fields(out), " "), linkID+" seat seat 2 ") {
		t.Fatalf("race links lacks the new link %s:\n%s", linkID, out)
	}
	has(t, "a revocation", must(hostTok, "race", "revoke", id, linkID), "revoked link "+linkID+" (seat, seat 2) of "+id)
	if code, doc, errs := jsonOf(t, "--server", url, "--token", newBlue, "race", "show", id); code != 2 || doc["code"] != "revoked" || strings.Contains(errs, newBlue) {
		t.Fatalf("a revoked link's token: %d %v %s", code, doc, errs)
	}
	if code, doc, _ := jsonOf(t, "--server", url, "--token", hostTok, "race", "revoke", id, "000000000000"); code != 2 || doc["code"] != "no_such_link" {
		t.Fatalf("revoking a link the race lacks: %d %v", code, doc)
	}

	// Webhooks: added (the secret once), listed with a delivery, removed.
	out = must(hostTok, "race", "hook", id, "--url", "http://127.0.0.1:9/hook", "--warn-before", "6h")
	has(t, "race hook", out, "webhook 1 of "+id+": json to http://127.0.0.1:9/hook, for turn_resolved, deadline_warning, race_finished; warns 6h before", "shown this once")
	doc = mustJSON(hostTok, "race", "hook", id, "--url", "http://127.0.0.1:9/discord", "--format", "discord", "--events", "turn_resolved,race_finished")
	hk := doc["hook"].(map[string]any)
	if hk["id"] != 2.0 || hk["format"] != "discord" || len(hk["events"].([]any)) != 2 || len(doc["secret"].(string)) != 64 {
		t.Fatalf("race hook --json: %v", doc)
	}
	if code, doc, _ := jsonOf(t, "--server", url, "--token", hostTok, "race", "hook", id, "--url", "http://127.0.0.1:9/x", "--format", "irc"); code != 2 || doc["field"] != "format" {
		t.Fatalf("a hook of a format there is not: %d %v", code, doc)
	}
	must(red, "orders", "submit", id, "Red", "M") // all in: turn 2 resolves, and each hook is told
	out = must(hostTok, "race", "hooks", id)
	has(t, "race hooks", out, "HOOK  FORMAT", "1     json     turn_resolved,deadline_warning,race_finished  6h before", "2     discord  turn_resolved,race_finished", "latest deliveries:", "turn  2 ", "pending")
	if strings.Contains(out, doc["secret"].(string)) {
		t.Fatal("race hooks shows a secret")
	}
	has(t, "race unhook", must(hostTok, "race", "unhook", id, "1"), "webhook 1 of "+id+" removed")
	doc = mustJSON(hostTok, "race", "hooks", id)
	if hs := doc["hooks"].([]any); hs[0].(map[string]any)["removed"] == nil || hs[1].(map[string]any)["removed"] != nil {
		t.Fatalf("the hooks after unhook 1: %v", hs)
	}
	if code, doc, _ := jsonOf(t, "--server", url, "--token", hostTok, "race", "unhook", id, "7"); code != 2 || doc["code"] != "no_such_hook" {
		t.Fatalf("unhook of a hook the race lacks: %d %v", code, doc)
	}
	// A racer's token opens none of the host's controls.
	for _, args := range [][]string{{"race", "links", id}, {"race", "pause", id}, {"race", "hooks", id}, {"race", "remove", id, "1"}} {
		if code, doc, _ := jsonOf(t, append([]string{"--server", url, "--token", red}, args...)...); code != 2 || doc["code"] != "forbidden" {
			t.Fatalf("%v with a racer's token: %d %v", args, code, doc)
		}
	}
}

// localShow is race id as the database here shows it to its host.
func localShow(t *testing.T, db, id string) string {
	t.Helper()
	code, out, errs := pitwall(t, "--db", db, "race", "show", id)
	if code != 0 {
		t.Fatalf("race show here: %d %s", code, errs)
	}
	return out
}

// The service's commands are usage errors without --server, and so are
// arguments they cannot take, before anything is asked.
func TestServerHostUsage(t *testing.T) {
	url, db := liveService(t, nil)
	for _, args := range [][]string{
		{"race", "start", "r1"}, {"race", "remove", "r1", "2"}, {"race", "bot", "r1", "2", "on"}, {"race", "pause", "r1"}, {"race", "resume", "r1"},
		{"race", "repeat", "r1", "--every", "48h"}, {"turn", "extend", "r1", "24h"}, {"race", "links", "r1"}, {"race", "link", "r1", "--role", "host"},
		{"race", "revoke", "r1", "abc"}, {"race", "hooks", "r1"}, {"race", "hook", "r1", "--url", "https://example.org"}, {"race", "unhook", "r1", "1"},
	} {
		path := strings.Join(args[:2], " ")
		refused(t, path+" without --server", path+" needs a running service: give --server URL", append([]string{"--db", db}, args...)...)
	}
	// The local join and withdraw are as they were.
	refused(t, "race join --name here", "--name is the racer's name in a join over --server", "--db", db, "race", "join", "r1", "--player", "X", "--name", "Y")
	refused(t, "race withdraw here without PLAYER", "race withdraw takes RACE and PLAYER", "--db", db, "race", "withdraw", "r1")
	refused(t, "race new --invite here", "--invite is the service's", "--db", db, "race", "new", "--rules", "nascar", "--invite")
	s := []string{"--server", url, "--token", "t0ken"}
	refused(t, "race withdraw PLAYER over --server", "the racer's token (--token) says who withdraws: give only RACE", append(s, "race", "withdraw", "r1", "Red")...)
	refused(t, "a join of two racers", "over --server a join enters one racer (A, B)", append(s, "race", "join", "r1", "--racer", "A", "--racer", "B")...)
	refused(t, "a join with --name and --racer", "--name or --racer, not both", append(s, "race", "join", "r1", "--name", "A", "--racer", "B")...)
	refused(t, "a join without a name", "--name is required with --server", append(s, "race", "join", "r1")...)
	refused(t, "race bot without on or off", "race bot takes RACE, SEAT and on or off", append(s, "race", "bot", "r1", "2")...)
	refused(t, "race bot --host with a seat", "race bot RACE --host takes on or off, and no seat", append(s, "race", "bot", "r1", "2", "on", "--host")...)
	refused(t, "race bot maybe", "say on (the service's bot plays) or off", append(s, "race", "bot", "r1", "--host", "maybe")...)
	refused(t, "race bot off --name", "with off no bot does", append(s, "race", "bot", "r1", "2", "off", "--name", "cruise")...)
	refused(t, "race bot --host --name", "give --host or --name, not both", append(s, "race", "bot", "r1", "--host", "on", "--name", "cruise")...)
	refused(t, "race repeat --stop --every", "--stop takes no --every, --at or --zone", append(s, "race", "repeat", "r1", "--stop", "--every", "48h")...)
	refused(t, "race repeat without --every", "give --every (such as 48h), or --stop", append(s, "race", "repeat", "r1")...)
	refused(t, "race repeat --zone without --at", "--zone goes with --at", append(s, "race", "repeat", "r1", "--every", "48h", "--zone", "UTC")...)
	refused(t, "turn extend soon", "DURATION is a length of time such as 24h or 90m; not \"soon\"", append(s, "turn", "extend", "r1", "soon")...)
	refused(t, "race link without --role", "--role is required: seat, spectator, host or invite", append(s, "race", "link", "r1")...)
	refused(t, "race link --role judge", "--role is seat, spectator, host or invite; not \"judge\"", append(s, "race", "link", "r1", "--role", "judge")...)
	refused(t, "a seat's link without its seat", "a seat's link names its seat", append(s, "race", "link", "r1", "--role", "seat")...)
	refused(t, "a spectator's link with a seat", "a spectator's link names no seat or racer", append(s, "race", "link", "r1", "--role", "spectator", "--seat", "2")...)
	refused(t, "race hook without --url", "--url is required", append(s, "race", "hook", "r1")...)
	refused(t, "race unhook of a word", "HOOK is a webhook's number from 1", append(s, "race", "unhook", "r1", "first")...)
	// A token the service does not know is its 401, and never printed.
	r := newServedNascar(t, url)
	code, doc, errs := jsonOf(t, "--server", url, "--token", "not-a-token-of-any-race-123456", "race", "links", r.id)
	if code != 2 || doc["code"] != "bad_token" || strings.Contains(errs, "not-a-token-of-any-race-123456") {
		t.Fatalf("race links with an unknown token: %d %v %s", code, doc, errs)
	}
	// --help says which token each takes, and that it needs --server.
	_, out, _ := pitwall(t, "race", "start", "--help")
	has(t, "race start --help", out, "It works only with --server (a running 'pitwall serve'), with the host's token")
	_, out, _ = pitwall(t, "race", "join", "--help")
	has(t, "race join --help", out, "With --server, a racer joins a race the service serves by invite")
}
