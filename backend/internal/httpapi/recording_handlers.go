package httpapi

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/exams"
)

type putRecordingRequest struct {
	Phase    int    `json:"phase"`
	MimeType string `json:"mimeType"`
}

func (a *api) putRecording(c echo.Context) error {
	var req putRecordingRequest
	if err := c.Bind(&req); err != nil {
		return err
	}
	u, _ := currentUser(c)
	r, err := a.exams.PutRecording(c.Request().Context(), u, c.Param("id"), c.Param("rid"), req.Phase, req.MimeType)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toRecordingDTO(r))
}

// putChunk streams the request body to the media store; the route's body
// limit refuses an oversized chunk before anything is stored.
func (a *api) putChunk(c echo.Context) error {
	seq, err := intParam(c, "seq")
	if err != nil {
		return err
	}
	u, _ := currentUser(c)
	info, err := a.exams.PutChunk(c.Request().Context(), u, c.Param("id"), c.Param("rid"), seq,
		&limitErrReader{r: c.Request().Body}, c.Request().Header.Get("X-Chunk-SHA256"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"seq": info.Seq, "bytes": info.Bytes})
}

type completeRequest struct {
	Chunks     int       `json:"chunks"`
	DurationMs int64     `json:"durationMs"`
	Levels     []float64 `json:"levels"`
}

func (a *api) completeRecording(c echo.Context) error {
	var req completeRequest
	if err := c.Bind(&req); err != nil {
		return err
	}
	u, _ := currentUser(c)
	r, err := a.exams.Complete(c.Request().Context(), u, c.Param("id"), c.Param("rid"), req.Chunks, req.DurationMs, req.Levels)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toRecordingDTO(r))
}

// recordingMedia serves a recording with Range support, so players can
// seek; it is private and never cached by shared caches. The page fetches
// it into a blob to play it, so it is served as a download that a browser
// never renders as a document, even when opened directly.
func (a *api) recordingMedia(c echo.Context) error {
	u, _ := currentUser(c)
	m, err := a.exams.OpenMedia(c.Request().Context(), u, c.Param("id"), c.Param("rid"))
	if err != nil {
		return err
	}
	defer m.Content.Close()
	h := c.Response().Header()
	h.Set("Content-Type", m.MimeType)
	h.Set("Cache-Control", "private, no-store")
	h.Set("Content-Disposition", attachment("grabacion-"+c.Param("rid")+domain.AudioExtension(m.MimeType)))
	h.Set("Content-Security-Policy", a.csp+"; sandbox")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	// Long recordings on slow links must not hit the server's write timeout.
	_ = http.NewResponseController(c.Response()).SetWriteDeadline(a.now().Add(exams.MediaWriteTimeout))
	// No modification time: ServeContent sends no Last-Modified.
	http.ServeContent(c.Response(), c.Request(), "", time.Time{}, m.Content)
	return nil
}

func (a *api) deleteRecording(c echo.Context) error {
	u, _ := currentUser(c)
	if err := a.exams.DeleteRecording(c.Request().Context(), u, c.Param("id"), c.Param("rid")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
