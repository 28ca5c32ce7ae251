package media_test

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/utpl/simulador/backend/internal/media"
	"github.com/utpl/simulador/backend/internal/media/mediatest"
)

func TestDirContract(t *testing.T) {
	mediatest.Run(t, func(t *testing.T) mediatest.Harness {
		root := t.TempDir()
		d, err := media.NewDir(root)
		if err != nil {
			t.Fatal(err)
		}
		return mediatest.Harness{
			Store: d,
			Names: func(t *testing.T, key string) []string {
				var names []string
				dir := filepath.Join(root, filepath.FromSlash(key))
				_ = filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
					if err == nil && !e.IsDir() {
						names = append(names, strings.TrimPrefix(path, dir+string(filepath.Separator)))
					}
					return nil
				})
				slices.Sort(names)
				return names
			},
			IsChunk:      func(name string) bool { return strings.HasSuffix(name, ".chunk") },
			ComposedName: "recording",
		}
	})
}
