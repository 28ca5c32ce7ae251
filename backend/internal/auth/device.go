package auth

import "strings"

// Device is what a session list shows of a User-Agent: the browser and
// the operating system, without versions or anything else that would
// single a device out.
type Device struct {
	Browser string // "" when unknown
	OS      string // "" when unknown
}

// DeviceOf reduces a User-Agent header to a browser and an operating
// system. The order of the checks matters: Edge and Opera also say
// "Chrome", Chrome also says "Safari", and iOS browsers say "Safari"
// whatever they are. A few substrings are all the list needs, so this is
// kept by hand rather than a User-Agent database.
func DeviceOf(ua string) Device {
	var d Device
	has := func(s string) bool { return strings.Contains(ua, s) }
	switch {
	case has("Edg/"), has("EdgA/"), has("EdgiOS/"):
		d.Browser = "Edge"
	case has("OPR/"), has("Opera"):
		d.Browser = "Opera"
	case has("SamsungBrowser/"):
		d.Browser = "Samsung Internet"
	case has("Firefox/"), has("FxiOS/"):
		d.Browser = "Firefox"
	case has("Chrome/"), has("CriOS/"), has("Chromium/"):
		d.Browser = "Chrome"
	case has("Safari/") && has("Version/"):
		d.Browser = "Safari"
	}
	switch {
	case has("iPhone"):
		d.OS = "iPhone"
	case has("iPad"):
		d.OS = "iPad"
	case has("Android"):
		d.OS = "Android"
	case has("CrOS"):
		d.OS = "ChromeOS"
	case has("Windows"):
		d.OS = "Windows"
	case has("Mac OS X"), has("Macintosh"):
		d.OS = "macOS"
	case has("Linux"), has("X11"):
		d.OS = "Linux"
	}
	return d
}
