package domain

import "testing"

func TestCanonicalAudioTypeOfStoredRecordings(t *testing.T) {
	for stored, want := range map[string]string{
		"audio/webm;codecs=opus":    "audio/webm;codecs=opus",
		"audio/webm;a=b,text/html":  "audio/webm",
		"Audio/Ogg , text/html":     "audio/ogg",
		"video/mp4;codecs=avc1,x=y": "audio/mp4",
		"text/html":                 "application/octet-stream",
		"":                          "application/octet-stream",
	} {
		if got := CanonicalAudioType(stored); got != want {
			t.Errorf("CanonicalAudioType(%q) = %q, want %q", stored, got, want)
		}
	}
}
