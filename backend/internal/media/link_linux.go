package media

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// linkNew writes data to a new file in dir that has no name (O_TMPFILE)
// and then names it dst, which must not exist (fs.ErrExist otherwise):
// one file, no temporary name to remove. Where the file system cannot
// make unnamed files, it writes a temporary file and links that.
func linkNew(dir, dst string, data []byte) error {
	fd, err := unix.Open(dir, unix.O_TMPFILE|unix.O_WRONLY|unix.O_CLOEXEC, 0o640)
	if errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.EISDIR) || errors.Is(err, unix.EINVAL) {
		return linkViaTemp(dir, dst, data)
	}
	if err != nil {
		return &os.PathError{Op: "open", Path: dir, Err: err}
	}
	f := os.NewFile(uintptr(fd), dir)
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		return err
	}
	// An unnamed file is linked through its /proc entry (AT_EMPTY_PATH
	// would need a capability).
	err = unix.Linkat(unix.AT_FDCWD, fmt.Sprintf("/proc/self/fd/%d", fd), unix.AT_FDCWD, dst, unix.AT_SYMLINK_FOLLOW)
	if err != nil {
		return &os.LinkError{Op: "link", Old: dir, New: dst, Err: err}
	}
	return nil
}
