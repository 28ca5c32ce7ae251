package httpapi

import (
	"net"
	"net/http"
	"net/netip"
	"strings"

	"github.com/utpl/simulador/backend/internal/config"
)

// clientAddresses decides who the client is: the sign-in throttle, the
// security events and the sessions list use its answer. X-Forwarded-For is
// a list each proxy appends to, so only its right-hand end, written by
// proxies we run, is true; anything further left is whatever the client
// sent (docs/security.md, "Client address").
type clientAddresses struct {
	trust bool           // forwarded headers are believed at all
	hops  int            // the client is the hops-th entry from the right
	cidrs []netip.Prefix // or: proxies are these ranges (hops is then 0)
	// hosting: Firebase Hosting is the outer proxy. Its hop is believed
	// only when the entry Cloud Run's front end appended is a Google
	// address (see googleFront).
	hosting bool
}

func newClientAddresses(cfg config.Config) clientAddresses {
	return clientAddresses{trust: cfg.TrustProxy, hops: cfg.ProxyHops(), cidrs: cfg.TrustProxyCIDRs, hosting: cfg.FirebaseHosting}
}

// googleFront are the ranges Google's front ends connect from when they
// proxy a request onwards (Google documents 35.191.0.0/16 and
// 130.211.0.0/22, and the IPv6 ranges below, as the sources of its load
// balancers' proxied traffic; 35.190.0.0/17 holds its front ends' own
// addresses). Behind Firebase Hosting, the entry Cloud Run's front end
// appends to X-Forwarded-For (the one entry nobody else writes: the
// address that connected to it) is Hosting's side of the hop, one of these.
// A caller that reaches the *.run.app address directly is that entry
// itself, and is counted under it, whatever it wrote to the left.
var googleFront = []netip.Prefix{
	netip.MustParsePrefix("35.191.0.0/16"),
	netip.MustParsePrefix("130.211.0.0/22"),
	netip.MustParsePrefix("35.190.0.0/17"),
	netip.MustParsePrefix("2600:2d00:1:b029::/64"),
	netip.MustParsePrefix("2600:2d00:1:1::/64"),
}

func isGoogleFront(a netip.Addr) bool {
	for _, p := range googleFront {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// of returns r's client address.
func (ca clientAddresses) of(r *http.Request) string {
	peer, ok := parseAddr(r.RemoteAddr)
	if !ok {
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		if err != nil {
			return r.RemoteAddr
		}
		return host
	}
	if !ca.trustsPeer(peer) {
		return peer.String()
	}
	chain := forwardedFor(r)
	if len(chain) == 0 {
		return peer.String()
	}
	if ca.hops > 0 && ca.hosting {
		// Cloud Run's front end appended the right-most entry: unless
		// that is a Google front end (Hosting), it is the caller itself.
		last, ok := parseAddr(chain[len(chain)-1])
		if !ok {
			return peer.String()
		}
		if !isGoogleFront(last) {
			return last.String()
		}
	}
	if ca.hops > 0 {
		// Fewer entries than proxies: the request skipped the outer ones,
		// and the left-most entry is the farthest a trusted proxy saw.
		i := max(len(chain)-ca.hops, 0)
		if a, ok := parseAddr(chain[i]); ok {
			return a.String()
		}
		return peer.String()
	}
	// By range: the right-most address that is not one of our proxies.
	last := peer
	for i := len(chain) - 1; i >= 0; i-- {
		a, ok := parseAddr(chain[i])
		if !ok {
			return last.String() // a trusted proxy never writes this: the client did
		}
		if !ca.isProxy(a) {
			return a.String()
		}
		last = a
	}
	return last.String()
}

// trustsPeer reports whether the connection comes from a proxy whose
// forwarded headers are believed.
func (ca clientAddresses) trustsPeer(peer netip.Addr) bool {
	if !ca.trust {
		return false
	}
	return ca.hops > 0 || ca.isProxy(peer)
}

func (ca clientAddresses) isProxy(a netip.Addr) bool {
	for _, p := range ca.cidrs {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// forwardedFor is X-Forwarded-For as a list, all its header lines joined
// in order.
func forwardedFor(r *http.Request) []string {
	var out []string
	for _, line := range r.Header.Values("X-Forwarded-For") {
		for _, s := range strings.Split(line, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// parseAddr reads an address as proxies write it: bare, or with a port
// ("1.2.3.4:80", "[2001:db8::1]:443"); IPv4-mapped IPv6 reads as IPv4.
func parseAddr(s string) (netip.Addr, bool) {
	if a, err := netip.ParseAddr(s); err == nil {
		return a.Unmap().WithZone(""), true
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap().WithZone(""), true
	}
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		return parseAddr(s[1 : len(s)-1])
	}
	return netip.Addr{}, false
}

// dropUntrustedForwarding removes what a proxy would say about the original
// request (the client's address, HTTPS) unless the connection comes from a
// trusted proxy: a client could otherwise claim HTTPS (Secure cookies,
// HSTS) or another address.
func (ca clientAddresses) dropUntrustedForwarding(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if peer, ok := parseAddr(r.RemoteAddr); !ok || !ca.trustsPeer(peer) {
			for _, k := range forwardingHeaders {
				if _, ok := r.Header[k]; ok {
					r.Header.Del(k)
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

var forwardingHeaders = []string{"Forwarded", "X-Forwarded-For", "X-Forwarded-Proto", "X-Forwarded-Protocol",
	"X-Forwarded-Ssl", "X-Forwarded-Host", "X-Url-Scheme", "X-Real-Ip"}
