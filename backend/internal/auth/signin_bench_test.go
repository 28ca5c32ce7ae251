package auth

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/testsupport/sqlitetest"
)

// benchService is a sign-in service on a fresh SQLite store with real
// password hashing and no log output.
func benchService(b *testing.B) *Service {
	st := sqlitetest.Open(b)
	s := NewService(st, NewSessions(st, time.Hour, 4*time.Hour), nil)
	s.Configure(Options{Log: slog.New(slog.DiscardHandler)})
	return s
}

// BenchmarkSignInDuringFlood measures the owner's sign-in (a real argon2id
// check) while a flood of wrong passwords hits the owner's account, as in
// the security review's flood (F-22):
//
//   - quiet: no flood, the baseline;
//   - throttled: 500 wrong passwords a second (seven times the review's
//     flood) from 32 addresses that already failed on the account, which
//     is under attack: each is refused on store reads, before the hashing
//     queue, so the owner's time stays close to the baseline (its budget
//     is in scripts/bench-budgets.sh);
//   - fresh-addresses: the same flood, each try from an address never seen
//     before. The throttle lets each one have its password checked
//     (refusing it would refuse the owner too), so the owner shares the
//     hashing slots with the flood: what bounds that is the hashing queue,
//     not the throttle. No budget; reported for comparison.
//
// floodReq/s is how many flood requests were answered per second (the
// fresh addresses' flood cannot reach 500: each costs a hash).
func BenchmarkSignInDuringFlood(b *testing.B) {
	for _, mode := range []string{"quiet", "throttled", "fresh-addresses"} {
		b.Run(mode, func(b *testing.B) {
			s := benchService(b)
			ctx := context.Background()
			const owner = "duena@utpl.edu.ec"
			if _, err := s.CreateUser(ctx, owner, goodPassword, domain.RoleTutor, "Dueña de la Cuenta"); err != nil {
				b.Fatal(err)
			}
			const floodAddresses = 32
			if mode == "throttled" {
				for a := range floodAddresses {
					if _, err := s.LoginPassword(ctx, owner, "mala-clave", fmt.Sprintf("198.18.0.%d", a+1)); err == nil {
						b.Fatal("a wrong password was accepted")
					}
				}
			}
			stop := make(chan struct{})
			var wg sync.WaitGroup
			var flood, fresh atomic.Int64
			if mode != "quiet" {
				const clients, perClient = 8, 500 / 8 // requests a second
				for range clients {
					wg.Go(func() {
						tick := time.NewTicker(time.Second / perClient)
						defer tick.Stop()
						for {
							select {
							case <-stop:
								return
							case <-tick.C:
							}
							ip := fmt.Sprintf("198.18.0.%d", flood.Load()%floodAddresses+1)
							if mode == "fresh-addresses" {
								n := fresh.Add(1)
								ip = fmt.Sprintf("10.%d.%d.%d", n>>16&255, n>>8&255, n&255)
							}
							_, _ = s.LoginPassword(ctx, owner, "mala-clave", ip)
							flood.Add(1)
						}
					})
				}
			}
			b.ResetTimer()
			for b.Loop() {
				if _, err := s.LoginPassword(ctx, owner, goodPassword, "192.0.2.10"); err != nil {
					b.Fatalf("the owner was refused: %v", err)
				}
			}
			b.StopTimer()
			close(stop)
			wg.Wait()
			b.ReportMetric(float64(flood.Load())/b.Elapsed().Seconds(), "floodReq/s")
		})
	}
}
