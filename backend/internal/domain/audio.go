package domain

import (
	"mime"
	"regexp"
	"strings"
)

// audioTypes maps the container types browsers record to the type a
// recording is stored and served as. A video container of an audio-only
// take (some browsers report one) is served as audio.
var audioTypes = map[string]string{
	"audio/webm": "audio/webm",
	"video/webm": "audio/webm",
	"audio/ogg":  "audio/ogg",
	"audio/mp4":  "audio/mp4",
	"video/mp4":  "audio/mp4",
	"audio/mpeg": "audio/mpeg",
	"audio/wav":  "audio/wav",
}

// codecsPattern is one codec name such as opus or mp4a.40.2.
var codecsPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9.]{0,31}$`)

// ParseAudioType turns the MIME type a browser reports for a new recording
// into the canonical form kept and served: an allowed container, with at
// most a single codecs parameter ("audio/webm;codecs=opus"). Other
// parameters are dropped; anything that does not parse as one media type
// (a list such as "audio/webm;a=b,text/html", which browsers read as its
// last type) is refused, so the server never echoes a type the client made.
func ParseAudioType(raw string) (string, bool) {
	if len(raw) > 100 {
		return "", false
	}
	mt, params, err := mime.ParseMediaType(raw)
	if err != nil {
		return "", false
	}
	base, ok := audioTypes[mt]
	if !ok {
		return "", false
	}
	if c := strings.ToLower(params["codecs"]); codecsPattern.MatchString(c) {
		return base + ";codecs=" + c, true
	}
	return base, true
}

// CanonicalAudioType is the type a stored recording is served as. Types
// stored before ParseAudioType existed keep playing: their container is
// read up to the first ';' or ','; anything else is served as bytes.
func CanonicalAudioType(stored string) string {
	if t, ok := ParseAudioType(stored); ok {
		return t
	}
	base, _, _ := strings.Cut(stored, ";")
	base, _, _ = strings.Cut(base, ",")
	if t, ok := audioTypes[strings.ToLower(strings.TrimSpace(base))]; ok {
		return t
	}
	return "application/octet-stream"
}

// AudioExtension names a file after its audio type (a download, the file
// sent for transcription): ".webm" for Chromium and Firefox takes, ".m4a"
// for Safari's MP4/AAC, ".ogg" where only Ogg was offered. A type outside
// the allow-list gets no extension.
func AudioExtension(mimeType string) string {
	switch base, _, _ := strings.Cut(CanonicalAudioType(mimeType), ";"); base {
	case "audio/webm":
		return ".webm"
	case "audio/mp4":
		return ".m4a"
	case "audio/ogg":
		return ".ogg"
	case "audio/mpeg":
		return ".mp3"
	case "audio/wav":
		return ".wav"
	}
	return ""
}
