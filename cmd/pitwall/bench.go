package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/spf13/cobra"

	"pitwall/web"
	"pitwall/web/loadgen"
)

func (a *app) benchCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "bench",
		Short: "Measure pitwall",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	c.AddCommand(a.benchServeCmd())
	return c
}

func (a *app) benchServeCmd() *cobra.Command {
	cfg := loadgen.Config{}
	var server, profile string
	var timeout time.Duration
	c := &cobra.Command{
		Use:   "serve [--races 100] [--racers 10] [--turns 10] [--server URL | --db DB]",
		Short: "Measure the service under a crowd of racers sending secret orders",
		Long: `Measures the host service as racers would load it: --races races of
--racers karts each (Mario Kart RTD), every racer watching its race's stream
and sending its order the moment it sees a turn open, every race resolving
a turn as soon as all its orders are in, for --turns turns. It prints the
orders acknowledged a second and the latency of an order, from sending it
to reading its answer (p50 and p99): every acknowledged order is in the
database before its answer is sent.

By default it serves a new SQLite database in a temporary folder on
127.0.0.1 in this process, and removes it afterwards. --db names another
database to serve (a postgres:// URL, say): the races it creates stay in
it. --server measures a service already running instead (the races stay
there too). --cpuprofile writes a CPU profile of the measured run (service and
racers, from the first order sent) for 'go tool pprof'.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var profErr error
			ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
			defer cancel()
			if server != "" && cmd.Flags().Changed("db") {
				return usagef("--server measures a running service, which has its own database: give --server or --db, not both")
			}
			if server != "" {
				if _, err := serviceURL("--server", server); err != nil {
					return err
				}
			}
			if timeout <= 0 {
				return usagef("--timeout is a length of time such as 5m; not %s", timeout)
			}
			check := cfg
			check.URL = "http://127.0.0.1"
			if err := check.Check(); err != nil {
				return usagef("--%v", err)
			}
			what := server
			if server == "" {
				if !cmd.Flags().Changed("db") {
					dir, err := os.MkdirTemp("", "pitwall-bench-")
					if err != nil {
						return err
					}
					defer os.RemoveAll(dir)
					a.db = filepath.Join(dir, "bench.db")
				}
				url, stop, err := a.benchServer()
				if err != nil {
					return err
				}
				defer stop()
				server, what = url, a.dbName()+" (served in this process on "+url+")"
			}
			cfg.URL = server
			line := a.progress()
			cfg.Progress = func(done, total int) { line.show(done == total, "%d of %d orders answered", done, total) }
			if profile != "" {
				f, err := os.Create(profile)
				if err != nil {
					return err
				}
				defer f.Close()
				// The profile covers the measured run alone, not the
				// races' making and the streams' opening before it.
				cfg.Started = func() { profErr = pprof.StartCPUProfile(f) }
				defer pprof.StopCPUProfile() // none running: nothing to stop
			}
			fmt.Fprintf(a.stderr, "%d races x %d racers x %d turns on %s, %d CPUs\n", cfg.Races, cfg.Racers, cfg.Turns, what, runtime.NumCPU())
			res, err := loadgen.Run(ctx, cfg)
			line.end()
			if profErr != nil {
				return fmt.Errorf("--cpuprofile: %w", profErr)
			}
			if errors.Is(err, context.DeadlineExceeded) {
				return fmt.Errorf("the workload did not finish in --timeout %s", timeout)
			}
			if err != nil {
				return err
			}
			return a.out(benchOut{Orders: res.Orders, Turns: res.Turns,
				Seconds: res.Elapsed.Seconds(), PerSecond: res.PerSecond(),
				P50ms: ms(res.Percentile(0.5)), P99ms: ms(res.Percentile(0.99)), MaxMs: ms(res.Percentile(1))},
				func(w io.Writer) { fmt.Fprintln(w, res) })
		},
	}
	c.Flags().IntVar(&cfg.Races, "races", 100, "how many races")
	c.Flags().IntVar(&cfg.Racers, "racers", 10, "racers in each race (2 to 12)")
	c.Flags().IntVar(&cfg.Turns, "turns", 10, "turns each racer orders for (1 to 12)")
	c.Flags().StringVar(&server, "server", "", "measure the service at this URL (http://HOST:PORT) instead of serving --db here")
	c.Flags().StringVar(&profile, "cpuprofile", "", "write a CPU profile of the run to this file")
	c.Flags().DurationVar(&timeout, "timeout", 10*time.Minute, "give up after this long")
	return c
}

type benchOut struct {
	Orders    int     `json:"orders"`
	Turns     int     `json:"turns"`
	Seconds   float64 `json:"seconds"`
	PerSecond float64 `json:"per_second"`
	P50ms     float64 `json:"p50_ms"`
	P99ms     float64 `json:"p99_ms"`
	MaxMs     float64 `json:"max_ms"`
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// benchServer serves --db on a free port of 127.0.0.1, as serve would, and
// returns its URL and how to stop it.
func (a *app) benchServer() (string, func(), error) {
	h, done, err := a.open()
	if err != nil {
		return "", nil, err
	}
	srv, err := web.New(h, slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	if err != nil {
		done()
		return "", nil, err
	}
	// A thousand racers on one address: the bench measures the service,
	// not its rate limits.
	srv.SetLimits(web.Limits{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		done()
		return "", nil, err
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	hs.RegisterOnShutdown(srv.Close)
	go func() { _ = hs.Serve(ln) }()
	srv.SetReady(true)
	return "http://" + ln.Addr().String(), func() {
		ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		defer cancel()
		_ = hs.Shutdown(ctx)
		done()
	}, nil
}
