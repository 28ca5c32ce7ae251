package lti

import "net/url"

// CanvasConfig is the developer key's JSON configuration for Canvas
// (Developer Keys → LTI key → "Enter URL" or "Paste JSON"): the tool's
// login, launch and key URLs, the services it uses, and its placements —
// the course navigation (a launch from the course's menu) and link
// selection (adding the tool to a module, which opens the deep linking
// picker). toolURL is the tool's public base URL.
func CanvasConfig(toolURL, title, description string) map[string]any {
	launch := toolURL + LaunchPath
	domain := ""
	if u, err := url.Parse(toolURL); err == nil {
		domain = u.Host
	}
	return map[string]any{
		"title":               title,
		"description":         description,
		"oidc_initiation_url": toolURL + LoginPath,
		"target_link_uri":     launch,
		"public_jwk_url":      toolURL + "/lti/jwks",
		"scopes":              ToolScopes,
		"extensions": []map[string]any{{
			"platform":      "canvas.instructure.com",
			"domain":        domain,
			"tool_id":       "simulador-complexivo-oral",
			"privacy_level": "public",
			"settings": map[string]any{
				"text": title,
				"placements": []map[string]any{
					{"placement": "course_navigation", "message_type": MessageResourceLink, "target_link_uri": launch,
						"text": "Simulador oral", "default": "enabled"},
					{"placement": "link_selection", "message_type": MessageDeepLinkingRequest, "target_link_uri": launch,
						"text": "Simulador oral", "selection_width": 800, "selection_height": 600},
				},
			},
		}},
		"custom_fields": map[string]string{},
	}
}
