package main

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"sync/atomic"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver, to create the database
)

// freshDatabase creates an empty database on the PostgreSQL server base
// names and returns its URL and a function that drops it.
func freshDatabase(ctx context.Context, base string) (string, func(), error) {
	admin, err := sql.Open("pgx", base)
	if err != nil {
		return "", nil, err
	}
	name := "upload_bench_" + strconv.FormatInt(time.Now().UnixNano(), 36)
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		admin.Close()
		return "", nil, fmt.Errorf("create the benchmark's database: %w", err)
	}
	u, err := url.Parse(base)
	if err != nil {
		admin.Close()
		return "", nil, err
	}
	u.Path = "/" + name
	drop := func() {
		_, _ = admin.Exec("DROP DATABASE " + name + " WITH (FORCE)")
		admin.Close()
	}
	return u.String(), drop, nil
}

// roundRobin is a reverse proxy that sends request n to server n mod 2, as
// a load balancer spreads requests over instances.
type roundRobin struct {
	srv    *http.Server
	url    string
	counts []atomic.Int64
}

func startProxy(targets ...string) (*roundRobin, error) {
	proxies := make([]*httputil.ReverseProxy, len(targets))
	for i, t := range targets {
		u, err := url.Parse(t)
		if err != nil {
			return nil, err
		}
		p := httputil.NewSingleHostReverseProxy(u)
		p.Transport = &http.Transport{MaxIdleConnsPerHost: 512, IdleConnTimeout: time.Minute}
		proxies[i] = p
	}
	rr := &roundRobin{counts: make([]atomic.Int64, len(targets))}
	var next atomic.Uint64
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	rr.url = "http://" + ln.Addr().String()
	rr.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(next.Add(1)-1) % len(proxies)
		rr.counts[i].Add(1)
		// The Host the client used stays (the server's same-origin check).
		proxies[i].ServeHTTP(w, r)
	}), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = rr.srv.Serve(ln) }()
	logf("round-robin proxy at %s for %v", rr.url, targets)
	return rr, nil
}

func (rr *roundRobin) served() []int64 {
	out := make([]int64, len(rr.counts))
	for i := range rr.counts {
		out[i] = rr.counts[i].Load()
	}
	return out
}

func (rr *roundRobin) Close() error { return rr.srv.Close() }
