package archive

import (
	"bytes"
	"context"
	"errors"
	"testing"
)

// TestWalkCancelled: Ctrl-C (a cancelled context) stops a walk before the
// next member, inside a member's reads, and inside a nested archive, with
// ctx's error.
func TestWalkCancelled(t *testing.T) {
	inner := zipOf(t, [2]string{"C.u", "c"}, [2]string{"D.u", "d"})
	for _, tc := range []struct {
		name string
		data []byte
		read bool // read the member after the cancel
	}{
		{"x.zip", zipOf(t, [2]string{"A.u", "a"}, [2]string{"B.u", "b"}), false},
		{"x.zip", zipOf(t, [2]string{"A.u", "a"}, [2]string{"B.u", "b"}), true},
		{"x.umod", umodOf(t, [2]string{"A.u", "a"}, [2]string{"B.u", "b"}), true},
		{"outer.zip", zipOf(t, [2]string{"in.zip", string(inner)}, [2]string{"E.u", "e"}), false},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		n := 0
		var readErr error
		err := WalkReader(ctx, tc.name, bytes.NewReader(tc.data), int64(len(tc.data)), Limits{}, func(m *Member) error {
			n++
			cancel()
			if tc.read {
				_, readErr = m.ReadAll()
			}
			return nil
		})
		cancel()
		if !errors.Is(err, context.Canceled) || n != 1 {
			t.Errorf("%s (read %v): have %v after %d members; want context.Canceled after 1", tc.name, tc.read, err, n)
		}
		if tc.read && !errors.Is(readErr, context.Canceled) {
			t.Errorf("%s: reading after the cancel: have %v, want context.Canceled", tc.name, readErr)
		}
	}
}
