// Command listenfloor is the floor of what a change listener costs per
// notification (issue 34): one pgx connection that only LISTENs on the
// site's change channel and counts what it hears, nothing else in the
// process. It prints its own CPU (getrusage) per notification heard, to
// compare with an idle gateway or content replica (hack/replica-bench.sh
// REPLICA_BENCH=idle runs it beside them).
//
//	listenfloor -dsn "$SITEPLANE_DATABASE_URL" -duration 10s -mode timeout
//
// -mode background waits with context.Background (pgx starts no context
// watcher); timeout waits with a cancellable context renewed per probe
// period, as postgres.ChangeListener does.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

func main() {
	dsn := flag.String("dsn", os.Getenv("SITEPLANE_DATABASE_URL"), "PostgreSQL DSN")
	duration := flag.Duration("duration", 10*time.Second, "how long to listen")
	mode := flag.String("mode", "timeout", "background or timeout (the wait's context)")
	channel := flag.String("channel", "siteplane_changes", "channel to LISTEN on")
	flag.Parse()
	if err := run(*dsn, *channel, *mode, *duration); err != nil {
		fmt.Fprintln(os.Stderr, "listenfloor:", err)
		os.Exit(1)
	}
}

func run(dsn, channel, mode string, duration time.Duration) error {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{channel}.Sanitize()); err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	heard, base := 0, cpuTime() // the connect and LISTEN are not per notification
	if mode == "background" {
		// the process ends the wait: the deadline is the caller's own timer
		time.AfterFunc(duration, func() { report(heard, base); os.Exit(0) })
		for {
			if _, err := conn.WaitForNotification(ctx); err != nil {
				return fmt.Errorf("wait: %w", err)
			}
			heard++
		}
	}
	end := time.Now().Add(duration)
	for time.Now().Before(end) {
		wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		for wctx.Err() == nil && time.Now().Before(end) {
			_, err := conn.WaitForNotification(wctx)
			if err != nil && !errors.Is(err, context.DeadlineExceeded) && wctx.Err() == nil {
				cancel()
				return fmt.Errorf("wait: %w", err)
			}
			if err == nil {
				heard++
			}
		}
		cancel()
	}
	report(heard, base)
	return nil
}

// cpuTime is the process's CPU time so far (user + system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// report prints the process's CPU since base per notification heard.
func report(heard int, base time.Duration) {
	cpu := cpuTime() - base
	per := 0.0
	if heard > 0 {
		per = float64(cpu.Microseconds()) / float64(heard)
	}
	fmt.Printf("listenfloor: heard %d, CPU %s, %.1f µs per notification\n", heard, cpu.Round(time.Millisecond), per)
}
