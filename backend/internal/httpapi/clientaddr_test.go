package httpapi

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"

	"github.com/utpl/simulador/backend/internal/config"
)

// TestClientAddressWithForgedHeaders: whatever a client writes into
// X-Forwarded-For, the address the trusted proxies saw is the one used;
// with no proxy trusted the header means nothing. Each case is a request
// as it reaches the server: the connection's peer and the header.
func TestClientAddressWithForgedHeaders(t *testing.T) {
	t.Parallel()
	cloudRun := config.Config{TrustProxy: true}                                 // TRUST_PROXY=true
	hosting := config.Config{TrustProxy: true, FirebaseHosting: true}           // ... with FIREBASE_HOSTING=true
	threeHops := config.Config{TrustProxy: true, TrustProxyHops: 3}             // TRUST_PROXY_HOPS=3
	byRange := config.Config{TrustProxy: true, TrustProxyCIDRs: []netip.Prefix{ // TRUST_PROXY_CIDRS=10.0.0.0/8,2001:db8:ffff::/48
		netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("2001:db8:ffff::/48")}}
	for _, tc := range []struct {
		name   string
		cfg    config.Config
		peer   string
		xff    []string // header lines
		client string
	}{
		{"no proxy trusted: the header is ignored", config.Config{}, "198.51.100.7:5000", []string{"9.9.9.9"}, "198.51.100.7"},
		{"no proxy trusted, IPv6 peer", config.Config{}, "[2001:db8::7]:5000", []string{"9.9.9.9"}, "2001:db8::7"},

		{"Cloud Run: the address its front end appended", cloudRun, "169.254.1.1:1", []string{"203.0.113.5"}, "203.0.113.5"},
		{"Cloud Run: a prepended address is the client's invention", cloudRun, "169.254.1.1:1", []string{"9.9.9.9, 203.0.113.5"}, "203.0.113.5"},
		{"Cloud Run: the review's probe", cloudRun, "127.0.0.1:1", []string{"9.9.9.9, 10.80.0.1"}, "10.80.0.1"},
		{"Cloud Run: forged lines before the proxy's", cloudRun, "169.254.1.1:1", []string{"9.9.9.9", "8.8.8.8, 203.0.113.5"}, "203.0.113.5"},
		{"Cloud Run: no header, the peer", cloudRun, "169.254.1.1:1", nil, "169.254.1.1"},
		{"Cloud Run: IPv6 client", cloudRun, "169.254.1.1:1", []string{"2001:db8:1::5"}, "2001:db8:1::5"},
		{"Cloud Run: garbage where the client should be", cloudRun, "169.254.1.1:1", []string{"9.9.9.9, <script>"}, "169.254.1.1"},

		{"Hosting: the address Hosting appended, before Hosting's own", hosting, "169.254.1.1:1", []string{"203.0.113.5, 35.190.0.1"}, "203.0.113.5"},
		{"Hosting: forged entries in front", hosting, "169.254.1.1:1", []string{"9.9.9.9, 1.1.1.1, 203.0.113.5, 35.190.0.1"}, "203.0.113.5"},
		{"Hosting: a request that skipped Hosting, without a header", hosting, "169.254.1.1:1", []string{"203.0.113.5"}, "203.0.113.5"},
		// S3-07: a caller that reaches *.run.app directly writes two
		// entries of its choice; Cloud Run's front end appends the
		// caller's own address, which is not a Google front end's.
		{"Hosting: a direct caller cannot pick a campus address", hosting, "169.254.1.1:1", []string{"198.51.100.9, 203.0.113.50, 192.0.2.66"}, "192.0.2.66"},
		{"Hosting: a direct caller posing as Hosting's hop", hosting, "169.254.1.1:1", []string{"203.0.113.50, 35.191.7.7, 192.0.2.66"}, "192.0.2.66"},
		{"Hosting: through Hosting, the test double's front end", hosting, "169.254.1.1:1", []string{"9.9.9.9, 203.0.113.50, 35.191.0.1"}, "203.0.113.50"},
		{"Hosting: IPv6 front end", hosting, "169.254.1.1:1", []string{"2001:db8:1::5, 2600:2d00:1:b029::7"}, "2001:db8:1::5"},

		{"three hops", threeHops, "10.0.0.1:1", []string{"9.9.9.9, 203.0.113.5, 10.1.1.1, 10.2.2.2"}, "203.0.113.5"},
		{"three hops, with ports and brackets", threeHops, "10.0.0.1:1", []string{"[2001:db8::5]:443, 10.1.1.1:80, 10.2.2.2"}, "2001:db8::5"},

		{"by range: the right-most address outside them", byRange, "10.0.0.1:1", []string{"9.9.9.9, 203.0.113.5, 10.1.1.1"}, "203.0.113.5"},
		{"by range: IPv6 proxies", byRange, "[2001:db8:ffff::1]:1", []string{"9.9.9.9, 2001:db8:1::5, 2001:db8:ffff::2"}, "2001:db8:1::5"},
		{"by range: a peer outside them is the client, whatever it says", byRange, "198.51.100.7:1", []string{"203.0.113.5"}, "198.51.100.7"},
		{"by range: IPv4-mapped peer", byRange, "[::ffff:10.0.0.1]:1", []string{"203.0.113.5"}, "203.0.113.5"},
		{"by range: every entry a proxy", byRange, "10.0.0.1:1", []string{"10.9.9.9, 10.1.1.1"}, "10.9.9.9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/", nil)
			r.RemoteAddr = tc.peer
			for _, v := range tc.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			if got := newClientAddresses(tc.cfg).of(r); got != tc.client {
				t.Fatalf("client = %s, want %s", got, tc.client)
			}
		})
	}
}

// TestForwardedSchemeOnlyFromATrustedProxy: X-Forwarded-Proto (HTTPS, so
// Secure cookies and HSTS) is believed from a trusted proxy and dropped
// from anyone else, per connection when the proxies are known by range.
func TestForwardedSchemeOnlyFromATrustedProxy(t *testing.T) {
	t.Parallel()
	byRange := newClientAddresses(config.Config{TrustProxy: true, TrustProxyCIDRs: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}})
	for _, tc := range []struct {
		ca    clientAddresses
		peer  string
		https bool
	}{
		{newClientAddresses(config.Config{}), "10.0.0.1:1", false},
		{newClientAddresses(config.Config{TrustProxy: true}), "169.254.1.1:1", true},
		{byRange, "10.0.0.1:1", true},
		{byRange, "198.51.100.7:1", false},
	} {
		var sawHTTPS bool
		h := tc.ca.dropUntrustedForwarding(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { sawHTTPS = isHTTPS(r) }))
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.RemoteAddr = tc.peer
		r.Header.Set("X-Forwarded-Proto", "https")
		r.Header.Set("X-Forwarded-For", "203.0.113.5")
		h.ServeHTTP(httptest.NewRecorder(), r)
		if sawHTTPS != tc.https {
			t.Errorf("%+v from %s: HTTPS = %v, want %v", tc.ca, tc.peer, sawHTTPS, tc.https)
		}
	}
}
