package feedback

// KnownContributions is how many finished attempts' contributions the
// service keeps in memory: a test waits on it for the reading a cancelled
// report goes on with.
func KnownContributions(s *Service) int {
	s.reports.mu.Lock()
	defer s.reports.mu.Unlock()
	return len(s.reports.m)
}
