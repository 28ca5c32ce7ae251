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

func TestAudioExtensionPerEngine(t *testing.T) {
	for mimeType, want := range map[string]string{
		"audio/webm;codecs=opus":     ".webm", // Chromium, Firefox
		"audio/mp4":                  ".m4a",  // WebKit (Safari, every iPhone browser)
		"audio/mp4;codecs=mp4a.40.2": ".m4a",
		"video/mp4":                  ".m4a",
		"audio/ogg;codecs=opus":      ".ogg", // a browser offering only Ogg
		"audio/mpeg":                 ".mp3",
		"text/html":                  "",
	} {
		if got := AudioExtension(mimeType); got != want {
			t.Errorf("AudioExtension(%q) = %q, want %q", mimeType, got, want)
		}
	}
}
