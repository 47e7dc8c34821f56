package web

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"pitwall/store"
)

// receiver is a webhook's receiver: it keeps what it is sent and answers
// with the statuses it is given, then 200.
type receiver struct {
	t   *testing.T
	url string

	mu       sync.Mutex
	got      []received
	statuses []int
}

type received struct {
	event, delivery, signature string
	body                       []byte
}

func newReceiver(t *testing.T, statuses ...int) *receiver {
	rc := &receiver{t: t, statuses: statuses}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.got = append(rc.got, received{r.Header.Get("X-Pitwall-Event"), r.Header.Get("X-Pitwall-Delivery"), r.Header.Get("X-Pitwall-Signature"), b})
		status := 200
		if len(rc.statuses) > 0 {
			status, rc.statuses = rc.statuses[0], rc.statuses[1:]
		}
		rc.mu.Unlock()
		if status == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "600")
		}
		w.WriteHeader(status)
	}))
	t.Cleanup(srv.Close)
	rc.url = srv.URL
	return rc
}

func (rc *receiver) received() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.got...)
}

// hooked is a clocked service whose webhooks may go to this machine.
func hooked(t *testing.T) (*service, *clock) {
	s, ck := clocked(t)
	s.srv.ConfigureHooks(HookConfig{PublicURL: "https://pitwall.example.org/", AllowPrivate: true})
	return s, ck
}

// addHook adds a webhook to race c and returns its id and secret.
func (s *service) addHook(c created, body string) (float64, string) {
	s.t.Helper()
	v := s.must(201, "POST", "/api/races/"+c.ID+"/hooks", c.Host, body)
	return v["hook"].(map[string]any)["id"].(float64), v["secret"].(string)
}

// deliverDue sends what is due until nothing more is, and says how many
// deliveries it claimed.
func (s *service) deliverDue() int {
	s.t.Helper()
	all := 0
	for {
		n, err := s.srv.DeliverDue(s.t.Context())
		if err != nil {
			s.t.Fatal(err)
		}
		if n == 0 {
			return all
		}
		all += n
	}
}

// deliveriesOf is race c's deliveries as its host sees them, oldest first.
func (s *service) deliveriesOf(c created) []map[string]any {
	s.t.Helper()
	v := s.must(200, "GET", "/api/races/"+c.ID+"/hooks", c.Host, "")
	var ds []map[string]any
	for _, x := range v["deliveries"].([]any) {
		ds = append([]map[string]any{x.(map[string]any)}, ds...)
	}
	return ds
}

// TestHooksTellEveryTurn: each turn resolved is told to every hook once,
// signed with its secret, as JSON or as a Discord message, the last one as
// race_finished; a resolve does not wait for any of it.
func TestHooksTellEveryTurn(t *testing.T) {
	s, _ := hooked(t)
	c := s.create(`{"ruleset": "nascar", "laps": 1, "resolve_when": "all_in", "seats": [{"name": "Red @everyone"}, {"name": "Blue"}]}`)
	plain, discord := newReceiver(t), newReceiver(t)
	_, secret := s.addHook(c, `{"url": "`+plain.url+`/in", "key": "h1"}`)
	s.addHook(c, `{"url": "`+discord.url+`", "format": "discord", "events": ["race_finished"]}`)
	path := "/api/races/" + c.ID
	s.must(200, "POST", path+"/bot", c.Host, `{"seat": 1, "bot": true}`)
	s.must(200, "POST", path+"/bot", c.Host, `{"seat": 2, "bot": true}`)
	turns := 0
	for {
		turn, _, v := s.seatsOf(c)
		if v["over"] == true {
			break
		}
		if turns++; turns > 200 {
			t.Fatal("the race does not end")
		}
		s.must(200, "POST", path+"/resolve", c.Host, fmt.Sprintf(`{"turn": %d}`, int(turn)))
	}
	p, err := s.srv.host.Load(t.Context(), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	resolved := p.Resolved()
	if resolved < 2 {
		t.Fatalf("%d turns resolved; the test wants a race of several", resolved)
	}
	s.deliverDue()
	got := plain.received()
	if len(got) != resolved {
		t.Fatalf("the JSON hook was told %d times; %d turns were resolved", len(got), resolved)
	}
	for i, r := range got {
		mac := hmac.New(sha256.New, []byte(secret))
		mac.Write(r.body)
		if r.signature != "sha256="+hex.EncodeToString(mac.Sum(nil)) {
			t.Errorf("delivery %d: signature %q does not match its body", i, r.signature)
		}
		var p hookPayload
		if err := json.Unmarshal(r.body, &p); err != nil {
			t.Fatal(err)
		}
		want := store.EventTurn
		if i == len(got)-1 {
			want = store.EventFinished
		}
		if p.Event != want || r.event != want || p.Turn != i+1 || p.Race != c.ID || p.Ruleset != "nascar" || r.delivery != fmt.Sprint(p.Delivery) {
			t.Errorf("delivery %d: %s %+v; want %s of turn %d", i, r.event, p, want, i+1)
		}
		if !strings.Contains(p.Post, "Red @everyone") || p.Title == "" || p.Over != (i == len(got)-1) {
			t.Errorf("delivery %d: the post is not the turn's: %q", i, p.Post)
		}
		wantPic := fmt.Sprintf("https://pitwall.example.org/api/races/%s/picture?turn=%d&format=png", c.ID, i+1)
		if p.Picture != wantPic || !strings.Contains(p.Post, wantPic) {
			t.Errorf("delivery %d: picture %q; want %q, shown in the post", i, p.Picture, wantPic)
		}
	}
	dm := discord.received()
	if len(dm) != 1 || dm[0].event != store.EventFinished {
		t.Fatalf("the Discord hook, asking for race_finished only, got %d messages", len(dm))
	}
	var msg struct {
		Content string `json:"content"`
		Embeds  []struct {
			Title, Description, URL string
			Image                   struct{ URL string }
		} `json:"embeds"`
		AllowedMentions struct {
			Parse []string `json:"parse"`
		} `json:"allowed_mentions"`
	}
	if err := json.Unmarshal(dm[0].body, &msg); err != nil {
		t.Fatal(err)
	}
	if len(msg.Embeds) != 1 || msg.Embeds[0].Image.URL == "" || !strings.Contains(msg.Embeds[0].Description, "Red @everyone") ||
		msg.Content == "" || len([]rune(msg.Embeds[0].Description)) > discordDescription || msg.AllowedMentions.Parse == nil {
		t.Errorf("the Discord message: %s", dm[0].body)
	}
	hs, _ := s.srv.hookStore()
	all, err := hs.Deliveries(t.Context(), c.ID, 1000)
	if err != nil {
		t.Fatal(err)
	}
	var skipped, delivered int
	for _, d := range all {
		switch d.Outcome {
		case store.Skipped:
			skipped++
		case store.Delivered:
			delivered++
		}
	}
	if delivered != resolved+1 || skipped != resolved-1 {
		t.Errorf("%d delivered, %d skipped; want %d and %d", delivered, skipped, resolved+1, resolved-1)
	}
}

// TestHookRetries: a receiver that fails is tried again after a backoff
// (or its Retry-After), one that refuses is given up at once, and one that
// never answers well is given up after maxAttempts.
func TestHookRetries(t *testing.T) {
	s, ck := hooked(t)
	c := s.create(twoCars)
	flaky := newReceiver(t, 500, 429)
	refusing := newReceiver(t, 404)
	down := newReceiver(t)
	for i := 0; i < maxAttempts; i++ {
		down.statuses = append(down.statuses, 503)
	}
	for _, rc := range []*receiver{flaky, refusing, down} {
		s.addHook(c, `{"url": "`+rc.url+`"}`)
	}
	s.must(200, "POST", "/api/races/"+c.ID+"/resolve", c.Host, `{"turn": 1}`)
	if n := s.deliverDue(); n != 3 {
		t.Fatalf("%d deliveries claimed; want 3", n)
	}
	byHook := func() map[float64]map[string]any {
		m := map[float64]map[string]any{}
		for _, d := range s.deliveriesOf(c) {
			m[d["hook"].(float64)] = d
		}
		return m
	}
	ds := byHook()
	if d := ds[1]; d["outcome"] != "" || d["attempts"] != 1.0 || !strings.Contains(d["error"].(string), "500") {
		t.Errorf("after a 500: %v; want pending, 1 attempt, its error", d)
	}
	if d := ds[2]; d["outcome"] != store.GaveUp || !strings.Contains(d["error"].(string), "404") {
		t.Errorf("after a 404: %v; want given up", d)
	}
	if n := s.deliverDue(); n != 0 {
		t.Errorf("%d deliveries sent again before their backoff", n)
	}
	ck.set(ck.Now().Add(firstBackoff))
	s.deliverDue()
	if d := byHook()[1]; d["attempts"] != 2.0 || !strings.Contains(d["error"].(string), "429") {
		t.Errorf("after a 429: %v", d)
	}
	ck.set(ck.Now().Add(2 * firstBackoff)) // the backoff, but not the receiver's Retry-After
	s.deliverDue()
	if d := byHook()[1]; d["attempts"] != 2.0 {
		t.Errorf("sent again before the receiver's Retry-After: %v", d)
	}
	for i := 0; i < maxAttempts+2; i++ {
		ck.set(ck.Now().Add(maxBackoff))
		s.deliverDue()
	}
	ds = byHook()
	if d := ds[1]; d["outcome"] != store.Delivered || d["attempts"] != 3.0 || len(flaky.received()) != 3 {
		t.Errorf("the flaky receiver: %v after %d sends; want delivered on the third", d, len(flaky.received()))
	}
	if d := ds[3]; d["outcome"] != store.GaveUp || d["attempts"] != float64(maxAttempts) || len(down.received()) != maxAttempts {
		t.Errorf("the receiver that is down: %v after %d sends; want given up after %d", d, len(down.received()), maxAttempts)
	}
	if n := len(refusing.received()); n != 1 {
		t.Errorf("the refusing receiver was sent %d; want 1", n)
	}
}

// TestHookWarnings: a hook is warned once of each deadline, as long before
// it as it asked, with the racers whose orders are not in; an extended
// deadline is warned of again; a warning gone stale is not sent.
func TestHookWarnings(t *testing.T) {
	s, ck := hooked(t)
	dl := ck.Now().Add(48 * time.Hour)
	c := s.raceWithDeadline(dl)
	rc, turns := newReceiver(t), newReceiver(t)
	s.addHook(c, `{"url": "`+rc.url+`", "warn_before": "12h", "events": ["deadline_warning"]}`)
	s.addHook(c, `{"url": "`+turns.url+`", "events": ["turn_resolved"]}`)
	warn := func() int {
		t.Helper()
		n, err := s.srv.WarnDue(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := warn(); n != 0 {
		t.Fatalf("%d warnings 48 hours before the deadline", n)
	}
	ck.set(dl.Add(-12*time.Hour - time.Second))
	if n := warn(); n != 0 {
		t.Fatalf("%d warnings a second before the hook asked", n)
	}
	s.must(200, "POST", "/api/races/"+c.ID+"/orders", c.Seats[0], `{"turn": 1, "orders": "A(1M)"}`)
	ck.set(dl.Add(-12 * time.Hour))
	if n := warn(); n != 1 {
		t.Fatalf("%d warnings 12 hours before; want 1", n)
	}
	if n := warn(); n != 0 {
		t.Fatalf("%d warnings more on a second look", n)
	}
	s.deliverDue()
	got := rc.received()
	if len(got) != 1 || got[0].event != store.EventWarning {
		t.Fatalf("received %d: %v", len(got), got)
	}
	var p hookPayload
	if err := json.Unmarshal(got[0].body, &p); err != nil {
		t.Fatal(err)
	}
	if p.Turn != 1 || p.Deadline == nil || !p.Deadline.Equal(dl) || len(p.Waiting) != 1 || p.Waiting[0] != "Blue" {
		t.Errorf("the warning: %+v; want turn 1, due %s, waiting for Blue", p, dl)
	}
	s.must(200, "POST", "/api/races/"+c.ID+"/schedule", c.Host, `{"turn": 1, "extend": "24h"}`)
	ck.set(dl.Add(12 * time.Hour))
	if n := warn(); n != 1 {
		t.Fatalf("%d warnings of the extended deadline; want 1", n)
	}
	// The race moves on before the warning is sent: it is not sent.
	s.must(200, "POST", "/api/races/"+c.ID+"/resolve", c.Host, `{"turn": 1}`)
	s.deliverDue()
	if got := rc.received(); len(got) != 1 {
		t.Errorf("a stale warning was sent: %d received", len(got))
	}
	if got := turns.received(); len(got) != 1 || got[0].event != store.EventTurn {
		t.Errorf("the hook of turns was told %v; want the turn alone", got)
	}
	var outcomes []string
	for _, d := range s.deliveriesOf(c) {
		outcomes = append(outcomes, fmt.Sprint(d["kind"], " ", d["outcome"]))
	}
	want := []string{"warning delivered", "warning skipped", "turn skipped", "turn delivered"}
	if fmt.Sprint(outcomes) != fmt.Sprint(want) {
		t.Errorf("outcomes %v; want %v", outcomes, want)
	}
}

// TestHookBadInput: what a host may not add is refused, saying why, and
// only the host may add, list or remove hooks.
func TestHookBadInput(t *testing.T) {
	s := newService(t) // webhooks to public addresses only
	c := s.create(twoCars)
	other := s.create(twoCars)
	path := "/api/races/" + c.ID + "/hooks"
	for body, field := range map[string]string{
		`{}`:                                                            "url",
		`{"url": "ftp://example.org/"}`:                                 "url",
		`{"url": "https://localhost:8080/"}`:                            "url",
		`{"url": "http://127.0.0.1/"}`:                                  "url",
		`{"url": "http://[::1]:80/"}`:                                   "url",
		`{"url": "http://10.1.2.3/"}`:                                   "url",
		`{"url": "http://169.254.169.254/latest"}`:                      "url",
		`{"url": "https://u:p@example.org/"}`:                           "url",
		`{"url": "https://example.org/", "format": "xml"}`:              "format",
		`{"url": "https://example.org/", "events": ["lap"]}`:            "events",
		`{"url": "https://example.org/", "events": []}`:                 "events",
		`{"url": "https://example.org/", "warn_before": "10s"}`:         "warn_before",
		`{"url": "https://example.org/", "warn_before": "forever"}`:     "warn_before",
		`{"url": "https://example.org/", "key": "` + serviceKeys + `"}`: "key",
		`{"url": "https://example.org/", "secret": "mine"}`:             "secret",
		`{"url": "https://example.org/", "key": "k\u0000"}`:             "key",
	} {
		status, v := s.call("POST", path, c.Host, body)
		if status < 400 || status >= 500 || v["field"] != field {
			t.Errorf("%s: %d %v; want a 4xx on %s", body, status, v, field)
		}
	}
	if v := s.must(200, "GET", path, c.Host, ""); len(v["hooks"].([]any)) != 0 {
		t.Fatalf("refused webhooks were stored: %v", v)
	}
	id, _ := s.addHook(c, `{"url": "https://example.org/in", "key": "k"}`)
	again, _ := s.addHook(c, `{"url": "https://example.org/in", "key": "k"}`)
	if again != id {
		t.Errorf("a repeat of key k made webhook %v; want %v again", again, id)
	}
	s.must(409, "POST", path, c.Host, `{"url": "https://example.org/elsewhere", "key": "k"}`)
	for _, call := range []struct {
		method, path, body string
	}{
		{"POST", path, `{"url": "https://example.org/x"}`},
		{"GET", path, ""},
		{"POST", fmt.Sprintf("%s/%v/remove", path, id), ""},
	} {
		for _, who := range []struct {
			token string
			want  int
		}{{"", 401}, {"not-a-token", 401}, {c.Seats[0], 403}, {other.Host, 403}} {
			if status, v := s.call(call.method, call.path, who.token, call.body); status != who.want {
				t.Errorf("%s %s as %q: %d %v; want %d", call.method, call.path, who.token, status, v, who.want)
			}
		}
	}
	s.must(404, "POST", path+"/999/remove", c.Host, "")
	s.must(404, "POST", path+"/x/remove", c.Host, "")
	s.must(200, "POST", fmt.Sprintf("%s/%v/remove", path, id), c.Host, "")
	s.must(200, "POST", fmt.Sprintf("%s/%v/remove", path, id), c.Host, "")
	v := s.must(200, "GET", path, c.Host, "")
	h := v["hooks"].([]any)[0].(map[string]any)
	if h["removed"] == nil || h["secret"] != nil || h["warn_before"] != "12h" {
		t.Errorf("the listing: %v; want the webhook removed, and no secret shown", h)
	}
}

// TestHookGuardsTheDial: a webhook that leads to this machine (as a name
// pointing here would, once looked up) is refused as the delivery dials,
// and the receiver is never reached.
func TestHookGuardsTheDial(t *testing.T) {
	s, _ := clocked(t) // public addresses only
	rc := newReceiver(t)
	c := s.create(twoCars)
	hs, _ := s.srv.hookStore()
	// Stored behind the API's back: the API refuses the address itself.
	if _, err := hs.AddHook(t.Context(), store.Hook{Race: c.ID, URL: rc.url, Format: store.HookJSON, Events: store.Events,
		Secret: strings.Repeat("x", 64), Created: s.srv.host.Now()}); err != nil {
		t.Fatal(err)
	}
	s.must(200, "POST", "/api/races/"+c.ID+"/resolve", c.Host, `{"turn": 1}`)
	s.deliverDue()
	if len(rc.received()) != 0 {
		t.Error("the receiver on this machine was reached")
	}
	d := s.deliveriesOf(c)[0]
	if d["outcome"] != "" || !strings.Contains(d["error"].(string), "public addresses") {
		t.Errorf("the delivery: %v; want pending, refused as it dialled", d)
	}
	if err := guardAddress("93.184.215.14:443"); err != nil {
		t.Errorf("a public address was refused: %v", err)
	}
}

// TestHooksOnceAcrossInstances: two instances on one PostgreSQL database,
// each sending at once, tell each turn to each hook once, in order;
// warnings likewise.
func TestHooksOnceAcrossInstances(t *testing.T) {
	ck := newClock()
	insts := instances(t, "web_hooks", ck)
	for _, s := range insts {
		s.srv.ConfigureHooks(HookConfig{AllowPrivate: true})
	}
	rc := newReceiver(t)
	dl := ck.Now().Add(time.Hour)
	var races []created
	for i := range 6 {
		c := insts[i%2].raceWithDeadline(dl)
		insts[i%2].addHook(c, `{"url": "`+rc.url+`/`+c.ID+`"}`)
		races = append(races, c)
	}
	for _, s := range insts {
		if _, err := s.srv.Rescan(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	const turns = 4
	var wg sync.WaitGroup
	for _, s := range insts {
		for range 2 {
			wg.Go(func() {
				if _, err := s.srv.WarnDue(t.Context()); err != nil {
					t.Error(err)
				}
			})
		}
	}
	wg.Wait()
	insts[1].deliverDue() // the warnings, before their turns resolve (and they go stale)
	for turn := 1; turn <= turns; turn++ {
		for i, c := range races {
			insts[(i+turn)%2].must(200, "POST", "/api/races/"+c.ID+"/resolve", c.Host, fmt.Sprintf(`{"turn": %d}`, turn))
		}
	}
	for _, s := range insts {
		for range 2 {
			wg.Go(func() {
				for {
					n, err := s.srv.DeliverDue(t.Context())
					if err != nil {
						t.Error(err)
						return
					}
					if n == 0 {
						return
					}
				}
			})
		}
	}
	wg.Wait()
	// What the passes left (a hook's next held back while another pass
	// sent the one before) is sent now.
	insts[0].deliverDue()
	byRace := map[string][]string{}
	for _, r := range rc.received() {
		var p hookPayload
		if err := json.Unmarshal(r.body, &p); err != nil {
			t.Fatal(err)
		}
		byRace[p.Race] = append(byRace[p.Race], fmt.Sprintf("%s %d", p.Event, p.Turn))
	}
	want := "[deadline_warning 1 turn_resolved 1 turn_resolved 2 turn_resolved 3 turn_resolved 4]"
	for _, c := range races {
		if got := fmt.Sprint(byRace[c.ID]); got != want {
			t.Errorf("race %s's hook was told %s; want %s", c.ID, got, want)
		}
	}
}

// TestResolveDoesNotWaitForHooks: a receiver that never answers holds up
// no resolve: the resolves are stored and answered while a send to it
// hangs.
func TestResolveDoesNotWaitForHooks(t *testing.T) {
	s, _ := hooked(t)
	hang := make(chan struct{})
	started := make(chan struct{}, 1)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case started <- struct{}{}:
		default:
		}
		<-hang
	}))
	t.Cleanup(rc.Close)
	t.Cleanup(func() { close(hang) })
	c := s.create(twoCars)
	s.addHook(c, `{"url": "`+rc.URL+`"}`)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go s.srv.RunHooks(ctx, time.Millisecond)
	s.must(200, "POST", "/api/races/"+c.ID+"/resolve", c.Host, `{"turn": 1}`)
	select {
	case <-started: // the first send hangs from here on
	case <-time.After(20 * time.Second):
		t.Fatal("the first turn was never sent to the hook")
	}
	resolved := make(chan string, 1)
	go func() { // a resolve that waited for the hook would hang: the test fails instead
		for turn := 2; turn <= 4; turn++ {
			req, _ := http.NewRequest("POST", s.url+"/api/races/"+c.ID+"/resolve", strings.NewReader(fmt.Sprintf(`{"turn": %d}`, turn)))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+c.Host)
			var v map[string]any
			res, err := http.DefaultClient.Do(req)
			if err == nil {
				err = json.NewDecoder(res.Body).Decode(&v)
				res.Body.Close()
			}
			if err != nil || v["resolved"] != true {
				resolved <- fmt.Sprintf("turn %d: %v %v", turn, v, err)
				return
			}
		}
		resolved <- ""
	}()
	select {
	case why := <-resolved:
		if why != "" {
			t.Fatal(why)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("three resolves took over 20 s while a hook hung: they wait for it")
	}
}

func TestShortDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{12 * time.Hour: "12h", 90 * time.Minute: "1h30m", time.Minute: "1m",
		168 * time.Hour: "168h", 90 * time.Second: "1m30s", time.Hour + time.Second: "1h0m1s"} {
		if got := shortDuration(d); got != want {
			t.Errorf("%s: %q, want %q", d, got, want)
		}
	}
}
