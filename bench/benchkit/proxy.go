package benchkit

import (
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
	"time"
)

// RoundRobin is a reverse proxy that sends request n to target n mod the
// number of targets, as a load balancer spreads requests over instances.
// The Host the client used is kept, so the servers' same-origin check
// sees the proxy's address, as behind Firebase Hosting.
type RoundRobin struct {
	URL    string
	srv    *http.Server
	counts []atomic.Int64
}

// StartRoundRobin listens on a free loopback port in front of targets.
func StartRoundRobin(targets ...string) (*RoundRobin, error) {
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
	rr := &RoundRobin{counts: make([]atomic.Int64, len(targets))}
	var next atomic.Uint64
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	rr.URL = "http://" + ln.Addr().String()
	rr.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(next.Add(1)-1) % len(proxies)
		rr.counts[i].Add(1)
		proxies[i].ServeHTTP(w, r)
	}), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = rr.srv.Serve(ln) }()
	return rr, nil
}

// Served is how many requests each target was sent.
func (rr *RoundRobin) Served() []int64 {
	out := make([]int64, len(rr.counts))
	for i := range rr.counts {
		out[i] = rr.counts[i].Load()
	}
	return out
}

// Close stops the proxy.
func (rr *RoundRobin) Close() error { return rr.srv.Close() }
