package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/utpl/simulador/bench/benchkit"
)

// The flood phase (-flood N): while the students' sign-in wave runs, N
// concurrent clients send sign-ins for made-up accounts, each from a new
// address (the server trusts X-Forwarded-For, as behind Cloud Run), as
// fast as the server answers. Meanwhile the owner of a real account (the
// first tutor) signs in every ownerEvery from a browser that signed in
// before (it shows its device token) and from a new browser, and every
// one of those sign-ins must succeed; their times are reported.

const ownerEvery = 500 * time.Millisecond

// floodStats is what the flood phase measured.
type floodStats struct {
	Clients  int            `json:"clients"`
	Requests int64          `json:"requests"`
	Statuses map[string]int `json:"statuses"`
	// The owner's sign-ins during the flood, from its known browser and
	// from a new one: how many, how many succeeded, and their times.
	KnownBrowser ownerStats `json:"ownerKnownBrowser"`
	NewBrowser   ownerStats `json:"ownerNewBrowser"`
}

type ownerStats struct {
	Tries   int                `json:"tries"`
	OK      int                `json:"ok"`
	Ms      benchkit.Latencies `json:"ms"`
	Refusal string             `json:"firstRefusal,omitempty"`
}

// flood runs the flood phase from now until stop is closed.
func (r *runner) flood(ctx context.Context, owner *tutor, stop <-chan struct{}) (*floodStats, error) {
	// The owner's browser signed in before the exam day: it holds a
	// device token (setup, not measured).
	res, err := benchkit.DoJSON(ctx, benchkit.NewClient(r.o.timeout), http.MethodPost, r.base+"/api/auth/login", "",
		map[string]string{"email": owner.email, "password": password}, map[string]string{"X-Forwarded-For": "198.51.100.200"})
	if err != nil {
		return nil, err
	}
	var first struct {
		Device string `json:"device"`
	}
	if res.Status != http.StatusOK || json.Unmarshal(res.Body, &first) != nil || first.Device == "" {
		return nil, fmt.Errorf("flood: the owner's first sign-in: %d %s", res.Status, res.Body)
	}
	st := &floodStats{Clients: r.o.flood, Statuses: map[string]int{}}
	var mu sync.Mutex
	var sent atomic.Int64
	var flooders sync.WaitGroup
	for i := range r.o.flood {
		flooders.Go(func() {
			c := benchkit.NewClient(r.o.timeout)
			rng := rand.New(rand.NewPCG(uint64(i), 77))
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				case <-ctx.Done():
					return
				default:
				}
				addr := fmt.Sprintf("100.%d.%d.%d", 64+rng.IntN(64), rng.IntN(256), 1+rng.IntN(254))
				res, err := benchkit.DoJSON(ctx, c, http.MethodPost, r.base+"/api/auth/login", "",
					map[string]string{"email": fmt.Sprintf("inventado.%d.%d@utpl.edu.ec", i, n), "password": "Verano2026!"},
					map[string]string{"X-Forwarded-For": addr})
				sent.Add(1)
				key := "error"
				if err == nil {
					key = fmt.Sprint(res.Status)
				}
				mu.Lock()
				st.Statuses[key]++
				mu.Unlock()
			}
		})
	}
	var known, fresh []time.Duration
	tick := time.NewTicker(ownerEvery)
	defer tick.Stop()
	try := func(o *ownerStats, ds *[]time.Duration, device, addr string) {
		body := map[string]string{"email": owner.email, "password": password}
		if device != "" {
			body["device"] = device
		}
		start := time.Now()
		res, err := benchkit.DoJSON(ctx, benchkit.NewClient(r.o.timeout), http.MethodPost, r.base+"/api/auth/login", "", body,
			map[string]string{"X-Forwarded-For": addr})
		o.Tries++
		switch {
		case err != nil && o.Refusal == "":
			o.Refusal = err.Error()
		case err == nil && res.Status == http.StatusOK:
			o.OK++
			*ds = append(*ds, time.Since(start))
		case err == nil && o.Refusal == "":
			o.Refusal = fmt.Sprintf("%d %s", res.Status, res.Body)
		}
	}
loop:
	for {
		select {
		case <-stop:
			break loop
		case <-ctx.Done():
			break loop
		case <-tick.C:
			try(&st.KnownBrowser, &known, first.Device, "198.51.100.200")
			try(&st.NewBrowser, &fresh, "", "198.51.100.201")
		}
	}
	flooders.Wait()
	st.Requests = sent.Load()
	st.KnownBrowser.Ms, st.NewBrowser.Ms = benchkit.Quantiles(known), benchkit.Quantiles(fresh)
	return st, nil
}
