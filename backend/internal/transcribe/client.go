// Package transcribe sends completed recordings to an OpenAI-compatible
// transcription endpoint (for example a self-hosted Whisper server) from a
// background job queue that survives restarts. A failure never touches the
// audio: the job is retried with backoff and, at worst, the recording keeps
// its live browser transcript or none.
package transcribe

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
)

// Config is the transcription server.
type Config struct {
	URL      string // full endpoint, or a base URL to which /v1/audio/transcriptions is added
	Model    string
	APIKey   string
	Language string
	Timeout  time.Duration
}

// Endpoint is the URL requests go to.
func (c Config) Endpoint() string {
	u := strings.TrimRight(c.URL, "/")
	if strings.HasSuffix(u, "/audio/transcriptions") {
		return u
	}
	if parsed, err := url.Parse(u); err == nil && strings.HasSuffix(parsed.Path, "/v1") {
		return u + "/audio/transcriptions"
	}
	return u + "/v1/audio/transcriptions"
}

// Client calls the endpoint.
type Client struct {
	cfg  Config
	http *http.Client
}

// NewClient returns a client; the timeout bounds one whole transcription.
func NewClient(cfg Config) *Client {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 5 * time.Minute
	}
	return &Client{cfg: cfg, http: &http.Client{Timeout: cfg.Timeout}}
}

// PermanentError is a failure retrying will not fix (the server refused the
// request as such).
type PermanentError struct{ Err error }

func (e *PermanentError) Error() string { return e.Err.Error() }
func (e *PermanentError) Unwrap() error { return e.Err }

// verboseJSON is the OpenAI verbose_json response (plain json has text only).
type verboseJSON struct {
	Text     string  `json:"text"`
	Language string  `json:"language"`
	Duration float64 `json:"duration"`
	Segments []struct {
		Start float64 `json:"start"`
		End   float64 `json:"end"`
		Text  string  `json:"text"`
	} `json:"segments"`
}

// Transcribe uploads audio (streamed, never buffered whole) and returns
// timed segments.
func (c *Client) Transcribe(ctx context.Context, audio io.Reader, filename string, durationMs int64) (string, []domain.Segment, error) {
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		err := func() error {
			for k, v := range map[string]string{"model": c.cfg.Model, "language": c.cfg.Language, "response_format": "verbose_json"} {
				if v == "" {
					continue
				}
				if err := mw.WriteField(k, v); err != nil {
					return err
				}
			}
			if err := mw.WriteField("timestamp_granularities[]", "segment"); err != nil {
				return err
			}
			fw, err := mw.CreateFormFile("file", filename)
			if err != nil {
				return err
			}
			if _, err := io.Copy(fw, audio); err != nil {
				return err
			}
			return mw.Close()
		}()
		pw.CloseWithError(err)
	}()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.cfg.Endpoint(), pr)
	if err != nil {
		pr.Close()
		return "", nil, &PermanentError{err}
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if c.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	res, err := c.http.Do(req)
	if err != nil {
		pr.Close()
		return "", nil, err // network error or timeout: retry
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 8<<20))
	if err != nil {
		return "", nil, err
	}
	if res.StatusCode != http.StatusOK {
		err := fmt.Errorf("transcription server answered %d: %.200s", res.StatusCode, body)
		if res.StatusCode >= 400 && res.StatusCode < 500 && res.StatusCode != http.StatusRequestTimeout && res.StatusCode != http.StatusTooManyRequests {
			return "", nil, &PermanentError{err}
		}
		return "", nil, err
	}
	var v verboseJSON
	if err := json.Unmarshal(body, &v); err != nil {
		return "", nil, &PermanentError{fmt.Errorf("transcription response is not JSON: %w", err)}
	}
	segs := make([]domain.Segment, 0, len(v.Segments))
	for _, s := range v.Segments {
		if t := strings.TrimSpace(s.Text); t != "" {
			segs = append(segs, domain.Segment{StartMs: int64(s.Start * 1000), EndMs: int64(s.End * 1000), Text: t})
		}
	}
	if len(segs) == 0 && strings.TrimSpace(v.Text) != "" {
		end := durationMs
		if v.Duration > 0 {
			end = int64(v.Duration * 1000)
		}
		segs = append(segs, domain.Segment{StartMs: 0, EndMs: end, Text: strings.TrimSpace(v.Text)})
	}
	if err := domain.ValidateSegments(segs); err != nil {
		return "", nil, &PermanentError{errors.New("transcription response out of bounds")}
	}
	lang := v.Language
	if lang == "" {
		lang = c.cfg.Language
	}
	return lang, segs, nil
}
