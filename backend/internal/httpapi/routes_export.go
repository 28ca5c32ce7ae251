package httpapi

// RouteInfo describes one endpoint of the route table.
type RouteInfo struct {
	Method string
	Path   string
	Access string
}

// Routes lists the route table (for tests that check every endpoint has an
// authorization scenario, and for documentation).
func Routes() []RouteInfo {
	a := &api{}
	var out []RouteInfo
	for _, r := range a.routes() {
		out = append(out, RouteInfo{Method: r.method, Path: r.path, Access: r.access.String()})
	}
	return out
}
