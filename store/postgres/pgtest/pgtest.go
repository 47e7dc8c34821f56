// Package pgtest gives tests of any package a schema of their own on the
// PostgreSQL server of the machine (or the one PITWALL_TEST_POSTGRES names).
package pgtest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// DefaultURL is the server tests use unless PITWALL_TEST_POSTGRES names
// another: the machine's own, with trust authentication.
const DefaultURL = "postgres://postgres@127.0.0.1:5432/test"

// Server returns the test server's URL and a connection to it, or skips the
// test when the server cannot be reached; with CI set it fails instead, so
// that the tests cannot go quietly unrun there.
func Server(t testing.TB) (string, *pgx.Conn) {
	t.Helper()
	u := os.Getenv("PITWALL_TEST_POSTGRES")
	if u == "" {
		u = DefaultURL
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		msg := fmt.Sprintf("PostgreSQL is not reachable at %s: %v\n"+
			"To run these tests, start a server that lets user postgres into database test over 127.0.0.1:5432 "+
			"(on Debian: pg_ctlcluster --skip-systemctl-redirect 15 main start), or set PITWALL_TEST_POSTGRES to a server's URL.", Redact(u), err)
		if os.Getenv("CI") != "" {
			t.Fatal(msg + "\nCI is set: these tests must run there.")
		}
		t.Skip(msg)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return u, conn
}

// runPrefix keeps the schemas of two test runs on one server apart.
var runPrefix = fmt.Sprintf("pitwall_t%d_", os.Getpid())

// Schema creates an empty schema for the test, dropped when the test ends,
// and returns a URL whose connections use it.
func Schema(t testing.TB, name string) string {
	t.Helper()
	base, conn := Server(t)
	name = runPrefix + name
	ctx := context.Background()
	ident := pgx.Identifier{name}.Sanitize()
	if _, err := conn.Exec(ctx, `DROP SCHEMA IF EXISTS `+ident+` CASCADE; CREATE SCHEMA `+ident); err != nil {
		t.Fatalf("creating schema %s: %v", name, err)
	}
	t.Cleanup(func() {
		if _, err := conn.Exec(ctx, `DROP SCHEMA IF EXISTS `+ident+` CASCADE`); err != nil {
			t.Errorf("dropping schema %s: %v", name, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("PITWALL_TEST_POSTGRES must be a URL (postgres://...): %v", err)
	}
	q := u.Query()
	q.Set("search_path", name)
	u.RawQuery = q.Encode()
	return u.String()
}

// Redact is u without its password, for a message.
func Redact(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "(a URL that does not parse)"
	}
	return p.Redacted()
}
