package benchkit

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"time"
)

// SessionCookie is the session cookie's name with the default
// COOKIE_SECURE=always.
const SessionCookie = "__Host-simulador_session"

// NewClient gives each simulated student its own connection pool, as each
// browser has its own connections to the server. Its requests carry
// "Accept-Encoding: gzip" (added by the transport, which also decompresses
// the response), as a browser's fetch does.
func NewClient(timeout time.Duration) *http.Client {
	return &http.Client{Timeout: timeout, Transport: &http.Transport{
		MaxIdleConnsPerHost: 2, IdleConnTimeout: 90 * time.Second,
	}}
}

// Response is a response read whole.
type Response struct {
	Status  int
	Body    []byte
	Header  http.Header
	Cookies []*http.Cookie
}

// Do sends one request as the app's page would (same-origin, with the
// session cookie when given) and reads the whole response.
func Do(ctx context.Context, c *http.Client, method, url, cookie, contentType string, body []byte, header map[string]string) (Response, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return Response{}, err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if cookie != "" {
		req.Header.Set("Cookie", SessionCookie+"="+cookie)
	}
	req.Header.Set("Sec-Fetch-Site", "same-origin") // what a browser sends from the app's page
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := c.Do(req)
	if err != nil {
		return Response{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return Response{}, err
	}
	return Response{Status: res.StatusCode, Body: b, Header: res.Header, Cookies: res.Cookies()}, nil
}

// DoJSON is Do with v as the JSON body.
func DoJSON(ctx context.Context, c *http.Client, method, url, cookie string, v any, header map[string]string) (Response, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return Response{}, err
	}
	return Do(ctx, c, method, url, cookie, "application/json", b, header)
}

// Cookie returns the value of the named cookie a response set, or "".
func (r Response) Cookie(name string) string {
	for _, ck := range r.Cookies {
		if ck.Name == name && ck.Value != "" {
			return ck.Value
		}
	}
	return ""
}
