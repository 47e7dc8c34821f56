package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"pitwall/web"
)

// shutdownGrace is how long a shutdown waits for requests in flight.
const shutdownGrace = 20 * time.Second

func (a *app) serveCmd() *cobra.Command {
	var addr string
	var rescan, pace time.Duration
	var demo, hooksPrivate, behindProxy bool
	var rateAddress, rateToken float64
	var publicURL string
	c := &cobra.Command{
		Use:   "serve [--addr HOST:PORT] [--url URL] [--demo]",
		Short: "Run the host service: races by secret link, over HTTP",
		Long: `Runs pitwall's host service on the race database (--db): racers send
their orders through their seat's secret link, the host resolves turns, and
anyone with a race's link (or anyone, for a public race) watches it live.

The API is described at /openapi.json and in docs/api.md; GET /healthz
answers 200 once the service is ready. SIGTERM or Ctrl-C shuts it down
cleanly: requests in flight finish, and nothing acknowledged is lost (every
acknowledged write is in the database before its answer is sent).

Turns resolve by themselves at their deadlines (POST
/api/races/{id}/schedule), each exactly once, also with several instances
on one database. At start the service reads every race and resolves what
fell due while it was down; it reads them all again every --rescan, which
is how one instance learns of deadlines another set.

--db is a SQLite file (made if missing) or a PostgreSQL URL
(postgres://user@host:port/database); several instances may serve one
PostgreSQL database. --demo starts, on a database with no race yet, one
public race of every game with the game's bot in every seat and a turn
every --demo-pace: open the home page to watch them. (A game on a
calendar, party, keeps its real weeks: its turns come at the pace, its
phases with the days.)

A race's host may add webhooks (POST /api/races/{id}/hooks): the service
tells them of each turn resolved, each deadline near and the race's end,
and tries again when a receiver fails. --url is the address the world
reaches the service at (https://pitwall.example.org, behind a proxy):
payloads link to the race and its picture with it. Webhooks go to public
addresses only, unless --webhooks-to-private lets them reach this machine
and private networks.

Requests are rate limited by address (--rate-address) and by token
(--rate-token): a request over its limit is answered 429 with Retry-After.
Behind a proxy on the same machine every request comes from the proxy's
address: give --behind-proxy, and have the proxy set X-Forwarded-For.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			// Before the database is opened (or made): a refused start leaves nothing.
			if rescan <= 0 {
				return usagef("--rescan is a length of time such as 1m; not %s", rescan)
			}
			if demo && (pace < web.MinEvery || pace > web.MaxEvery) {
				return usagef("--demo-pace is from 10s to 2160h (90 days); not %s", pace)
			}
			if rateAddress < 0 || rateToken < 0 || math.IsNaN(rateAddress+rateToken) {
				return usagef("--rate-address and --rate-token are requests a second, from 0 (no limit)")
			}
			if publicURL != "" {
				if _, err := serviceURL("--url", publicURL); err != nil {
					return err
				}
			}
			h, done, err := a.open()
			if err != nil {
				return err
			}
			defer done()
			log := slog.New(slog.NewTextHandler(a.stderr, nil))
			srv, err := web.New(h, log)
			if err != nil {
				return err
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return usagef("cannot listen on %s: %v", addr, err)
			}
			if publicURL == "" {
				publicURL = "http://" + ln.Addr().String()
			}
			srv.ConfigureHooks(web.HookConfig{PublicURL: publicURL, AllowPrivate: hooksPrivate})
			limits := web.Limits{BehindProxy: behindProxy}
			for _, l := range []struct {
				to   *web.Limit
				rate float64
				def  web.Limit
			}{{&limits.Address, rateAddress, web.DefaultLimits.Address}, {&limits.Token, rateToken, web.DefaultLimits.Token}} {
				*l.to = web.Limit{PerSecond: l.rate, Burst: int(l.rate * float64(l.def.Burst) / l.def.PerSecond)}
			}
			srv.SetLimits(limits)
			hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
			hs.RegisterOnShutdown(srv.Close)
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if demo {
				ids, err := srv.Demo(cmd.Context(), pace)
				if err != nil {
					return err
				}
				if len(ids) == 0 {
					fmt.Fprintf(a.stderr, "--demo: %s holds races already; no demo races were started\n", a.dbName())
				} else {
					fmt.Fprintf(a.stderr, "--demo: %d races with bots in every seat, a turn every %s: %s\n", len(ids), pace, strings.Join(ids, ", "))
				}
			}
			errc := make(chan error, 1)
			go func() { errc <- hs.Serve(ln) }()
			dctx, stopDeadlines := context.WithCancel(context.Background())
			deadlinesDone := make(chan struct{})
			hooksDone := make(chan struct{})
			go func() { defer close(deadlinesDone); srv.RunDeadlines(dctx, rescan) }()
			listenDone := make(chan struct{})
			go func() { defer close(hooksDone); srv.RunHooks(dctx, time.Second) }()
			go func() { defer close(listenDone); srv.RunListen(dctx) }()
			defer func() { stopDeadlines(); <-deadlinesDone; <-hooksDone; <-listenDone }() // before the store closes
			srv.SetReady(true)
			fmt.Fprintf(a.stderr, "pitwall serves %s on http://%s (Ctrl-C to stop)\n", a.dbName(), ln.Addr())
			select {
			case err := <-errc:
				return err
			case <-ctx.Done():
			}
			srv.SetReady(false)
			log.Info("shutting down: finishing the requests in flight")
			sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
			defer cancel()
			if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
				return fmt.Errorf("shutting down: %w", err)
			}
			return nil
		},
	}
	c.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "the address to listen on, HOST:PORT (port 0: any free port)")
	c.Flags().BoolVar(&demo, "demo", false, "on a database with no race, start one race of every game with bots in every seat")
	c.Flags().DurationVar(&pace, "demo-pace", 30*time.Second, "with --demo: how long each turn of the demo races lasts (10s or more)")
	c.Flags().StringVar(&publicURL, "url", "", "the service's address as the world reaches it, for the links in webhooks (default: http://ADDR)")
	c.Flags().BoolVar(&hooksPrivate, "webhooks-to-private", false, "let webhooks go to this machine and private networks")
	c.Flags().Float64Var(&rateAddress, "rate-address", web.DefaultLimits.Address.PerSecond, "requests a second from one address, on average (0: no limit)")
	c.Flags().Float64Var(&rateToken, "rate-token", web.DefaultLimits.Token.PerSecond, "requests a second with one token, on average (0: no limit)")
	c.Flags().BoolVar(&behindProxy, "behind-proxy", false, "count requests by the last address of X-Forwarded-For (set by the proxy in front), not the proxy's")
	c.Flags().DurationVar(&rescan, "rescan", time.Minute, "how often to read every race's deadline again (to learn of other instances' schedules)")
	return c
}
