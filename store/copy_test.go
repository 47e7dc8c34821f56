package store

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// A copy's error names the race once: an error that names it already is
// only marked as the copy's, and every one still wraps what it wrapped.
func TestCopyFailed(t *testing.T) {
	other := errors.New("disk full")
	for _, tc := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("race %q: %w", "r", ErrNotFound), `copying race "r": no such race`},
		{fmt.Errorf("race %q: %w", "r", ErrExists), `copying race "r": a race with this ID exists`},
		{other, `race "r": reading it to copy: disk full`},
	} {
		got := CopyFailed("r", "reading it to copy", tc.err)
		if got.Error() != tc.want || !errors.Is(got, tc.err) {
			t.Errorf("CopyFailed(%v) = %v, want %q wrapping it", tc.err, got, tc.want)
		}
		if n := strings.Count(got.Error(), `"r"`); n != 1 {
			t.Errorf("%q names the race %d times", got, n)
		}
	}
}
