package hostingproxy

import (
	"regexp"
	"strings"
)

// compileGlob turns a firebase.json "source" into a regular expression
// with the semantics Hosting gives it. Hosting documents "source" as a glob
// (https://firebase.google.com/docs/hosting/full-config#glob_pattern_matching),
// and firebase-tools' local server (superstatic, src/utils/patterns.js,
// configMatcher) matches it with minimatch against the request path. This
// is the part of minimatch firebase.json files use:
//
//   - "**" as a whole path segment matches any number of segments, none
//     included ("/assets/**" matches "/assets" and "/assets/a/b.js");
//   - "*" matches within one segment, "?" one character of it;
//   - "{a,b}" matches either alternative, and "@(a|b)" likewise;
//   - a leading "!" negates the whole pattern ("!/assets/**").
//
// A source without a leading "/" is matched against the path as is, which
// (as in minimatch) starts with "/": "**/*.html" matches "/x.html".
func compileGlob(glob string) (*regexp.Regexp, bool) {
	negate := false
	for strings.HasPrefix(glob, "!") {
		negate = !negate
		glob = glob[1:]
	}
	var b strings.Builder
	b.WriteString("^")
	segs := strings.Split(glob, "/")
	for i, seg := range segs {
		last := i == len(segs)-1
		if seg == "**" {
			switch {
			case i == 0 && last:
				b.WriteString(".*")
			case i == 0:
				// Leading "**/": any number of leading segments, the
				// empty one before the path's first "/" included.
				b.WriteString("(?:[^/]*/)*")
			case last:
				// Trailing "/**": the directory itself or anything in it.
				b.WriteString("(?:/.*)?")
			default:
				b.WriteString("(?:/[^/]*)*/")
			}
			continue
		}
		if i > 0 && !(i > 0 && segs[i-1] == "**") {
			b.WriteString("/")
		}
		b.WriteString(segmentPattern(seg))
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String()), negate
}

func segmentPattern(seg string) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		switch {
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '{':
			depth++
			b.WriteString("(?:")
		case c == '}' && depth > 0:
			depth--
			b.WriteString(")")
		case c == ',' && depth > 0:
			b.WriteString("|")
		case c == '@' && i+1 < len(seg) && seg[i+1] == '(':
			depth++
			b.WriteString("(?:")
			i++
		case c == ')' && depth > 0:
			depth--
			b.WriteString(")")
		case c == '|' && depth > 0:
			b.WriteString("|")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}

// matcher is a header rule's or a rewrite's path test: a glob ("source")
// or an RE2 regular expression ("regex"), which Hosting matches against
// the request URL path (Hosting REST API, Header and Rewrite:
// https://firebase.google.com/docs/reference/hosting/rest/v1beta1/sites.versions#header).
type matcher struct {
	re     *regexp.Regexp
	negate bool
}

func newMatcher(source, regex string) (matcher, error) {
	if regex != "" {
		re, err := regexp.Compile(regex)
		return matcher{re: re}, err
	}
	re, negate := compileGlob(source)
	return matcher{re: re, negate: negate}, nil
}

func (m matcher) match(path string) bool { return m.re.MatchString(path) != m.negate }
