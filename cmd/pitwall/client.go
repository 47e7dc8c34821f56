package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// The command line's client of a running service (--server): the few
// requests of the JSON API (docs/api.md) that its commands make, and the
// mapping of the service's answers to the command line's errors.

// clientTimeout bounds each request, from the connection to the last byte
// of its answer.
const clientTimeout = 30 * time.Second

// maxAnswer is the largest answer read: an export of a long race is a few
// MiB, a picture less.
const maxAnswer = 64 << 20

// client speaks to the service at one address, as the holder of one token
// (none: a spectator of a public race).
type client struct {
	base  *url.URL // the service's address, with no trailing slash
	shown string   // base as messages show it: without a user's password
	token string
	hc    *http.Client
	// key is this run's key for a write that names none: a request tried
	// again after a lost connection carries the same, so it is stored once.
	key string
}

// newClient checks --server and returns a client of it.
func newClient(server, token string) (*client, error) {
	u, err := serviceURL("--server", strings.TrimSpace(server))
	if err != nil {
		return nil, err
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	if strings.ContainsAny(token, " \t\r\n") {
		return nil, usagef("--token is a link's token as the service gave it, with no spaces or line breaks")
	}
	var k [16]byte
	_, _ = rand.Read(k[:]) // crypto/rand.Read never fails
	hc := &http.Client{
		Timeout: clientTimeout,
		// A redirect is not followed: a write would be sent again as a GET,
		// and the token to wherever it points. The user is told where to.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return &client{base: u, shown: u.Redacted(), token: token, hc: hc, key: "cli-" + hex.EncodeToString(k[:])}, nil
}

// serviceURL checks the address of a service that flag gives: http or
// https, a host, no query or fragment. Its refusal shows only the scheme,
// host and path of what it was given: a password or a token may be in it.
func serviceURL(flag, s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.RawQuery == "" && u.Fragment == "" && !u.ForceQuery {
		return u, nil
	}
	shown := "what was given is not a URL"
	if err == nil {
		shown = fmt.Sprintf("not %q", (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String())
	}
	return nil, usagef("%s is the service's address, such as http://127.0.0.1:8080 or https://races.example.org, with no query; %s (shown without a password or query)", flag, shown)
}

// serviceError is the service's answer to a request it did not do: a
// refusal (4xx) with its {"error", "field", "code"}, or its own failure.
type serviceError struct {
	Status int
	Msg    string
	Field  string
	Code   string
}

func (e *serviceError) Error() string { return e.Msg }

// bad says whether the request was the user's mistake (exit status 2):
// every 4xx but a timeout and a rate limit, which say to try again.
func (e *serviceError) bad() bool {
	return e.Status >= 400 && e.Status < 500 && e.Status != http.StatusRequestTimeout && e.Status != http.StatusTooManyRequests
}

// apiPath is the path of an API request under the service's address: the
// parts joined by "/", each escaped (a race's id is any text).
func apiPath(parts ...string) string {
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return "/api/" + strings.Join(parts, "/")
}

// do makes one request and returns the answer's body when it is a 2xx.
// body, when not nil, is sent as JSON. A read, or a write with a "key",
// whose connection fails is tried once more with the same body: the key
// makes the second store nothing more if the first did arrive. A write
// without one (a race's creation) is not tried again: it could be done
// twice.
func (c *client) do(ctx context.Context, method, path string, query url.Values, body any) ([]byte, http.Header, error) {
	u := *c.base
	u.Path += path
	u.RawQuery = query.Encode()
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return nil, nil, err
		}
	}
	var res *http.Response
	for try := 0; ; try++ {
		req, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(payload))
		if err != nil {
			return nil, nil, err
		}
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		req.Header.Set("Accept", "application/json, */*")
		if c.token != "" {
			req.Header.Set("Authorization", "Bearer "+c.token)
		}
		res, err = c.hc.Do(req)
		if err == nil {
			break
		}
		if m, _ := body.(map[string]any); method != http.MethodGet && m["key"] == nil {
			return nil, nil, fmt.Errorf("%w (if the service did get the request, it has done it: look before you send it again)", c.unreachable(err))
		}
		if try == 1 || ctx.Err() != nil {
			return nil, nil, c.unreachable(err)
		}
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, maxAnswer+1))
	if err != nil {
		return nil, nil, c.unreachable(err)
	}
	if len(b) > maxAnswer {
		return nil, nil, fmt.Errorf("the service at %s answered more than %d MiB to %s %s; is it a pitwall service?", c.shown, maxAnswer>>20, method, path)
	}
	if res.StatusCode/100 == 2 {
		return b, res.Header, nil
	}
	return nil, nil, c.refusal(res, b)
}

// unreachable is a failure to get an answer at all, said without the
// request's URL (the service's address stands for it).
func (c *client) unreachable(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		if ue.Timeout() {
			return c.scrub(fmt.Errorf("cannot reach the service at %s: no answer within %s", c.shown, clientTimeout))
		}
		err = ue.Err
	}
	return c.scrub(fmt.Errorf("cannot reach the service at %s: %v", c.shown, err))
}

// refusal is a non-2xx answer as an error: the service's own message when
// it gave one.
func (c *client) refusal(res *http.Response, b []byte) error {
	var doc struct {
		Error string `json:"error"`
		Field string `json:"field"`
		Code  string `json:"code"`
	}
	if res.StatusCode/100 == 3 {
		where := "elsewhere"
		if loc, err := res.Location(); err == nil {
			loc.Path, loc.RawPath, loc.RawQuery = strings.TrimSuffix(loc.Path, strings.TrimPrefix(res.Request.URL.Path, c.base.Path)), "", ""
			where = "to " + loc.Redacted()
		}
		return c.scrub(usagef("the service at %s redirects %s: give that address as --server", c.shown, where))
	}
	mt, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type"))
	if mt != "application/json" || json.Unmarshal(b, &doc) != nil || doc.Error == "" {
		return c.scrub(&serviceError{Status: res.StatusCode, Msg: fmt.Sprintf("the service at %s answered %s, not pitwall's JSON: is --server a pitwall service's address?", c.shown, res.Status)})
	}
	e := &serviceError{Status: res.StatusCode, Msg: doc.Error, Field: doc.Field, Code: doc.Code}
	switch {
	case res.StatusCode >= 500:
		e.Msg = fmt.Sprintf("the service at %s failed: %s", c.shown, doc.Error)
	case doc.Code == "no_token" || doc.Code == "bad_token" || doc.Code == "revoked":
		e.Msg += " (the token is --token, or $PITWALL_TOKEN)"
	case res.StatusCode == http.StatusTooManyRequests:
		if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err == nil {
			e.Msg += fmt.Sprintf(" (try again in %d s)", s)
		}
	}
	return c.scrub(e)
}

// scrub takes the token out of an error's message, wherever it came from:
// a token is a secret, and messages are pasted into chats.
func (c *client) scrub(err error) error {
	if c.token == "" || !strings.Contains(err.Error(), c.token) {
		return err
	}
	var se *serviceError
	var ue *usageError
	switch {
	case errors.As(err, &se):
		cp := *se
		cp.Msg = strings.ReplaceAll(cp.Msg, c.token, "[token]")
		return &cp
	case errors.As(err, &ue):
		return &usageError{strings.ReplaceAll(ue.msg, c.token, "[token]")}
	}
	return errors.New(strings.ReplaceAll(err.Error(), c.token, "[token]"))
}

// postJSON sends a write and reads its JSON answer into v.
func (c *client) postJSON(ctx context.Context, path string, body, v any) error {
	b, _, err := c.do(ctx, http.MethodPost, path, nil, body)
	if err != nil {
		return err
	}
	return c.decode(b, path, v)
}

func (c *client) decode(b []byte, path string, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("the service at %s answered %s with what is not the JSON pitwall sends (%v); is it a pitwall service of this version?", c.shown, path, err)
	}
	return nil
}

// writeKey is the key a write carries: the user's --key, or this run's.
func (c *client) writeKey(key string) string {
	if key != "" {
		return key
	}
	return c.key
}
