//go:build !linux

package media

// linkNew writes data to a temporary file in dir and links it as dst,
// which must not exist (fs.ErrExist otherwise).
func linkNew(dir, dst string, data []byte) error { return linkViaTemp(dir, dst, data) }
