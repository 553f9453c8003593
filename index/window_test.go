package index

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"reflect"
	"testing"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/internal/window"
)

// TestDescribeStreamed: a package whose body is far bigger than the window
// (names after the header, imports and exports at the end, as the engines
// write them) is described from a zip member as from the whole bytes.
func TestDescribeStreamed(t *testing.T) {
	defer func(h, tl int) { window.Head, window.Tail = h, tl }(window.Head, window.Tail)
	window.Head, window.Tail = 512, 2048
	b := format.NewBuilder(69, 0)
	b.ImportSpec("Core.Thing:Core.Class")
	b.ExportSpec("Big:Class", 1<<20)
	data, err := format.Marshal(b.File)
	if err != nil {
		t.Fatal(err)
	}
	want, err := describeWhole("Big.u", data)
	if err != nil {
		t.Fatal(err)
	}
	have, err := describe(context.Background(), "Big.u", bytes.NewReader(data))
	if err != nil {
		t.Fatalf("streamed: %v", err)
	}
	if !reflect.DeepEqual(have, want) {
		t.Errorf("streamed %+v\nwhole    %+v", have, want)
	}
}

// describeWhole is describe without a window: the oracle.
func describeWhole(fileName string, data []byte) (*pkgInfo, error) {
	f, err := format.NewFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	return summarise(fileName, f, int64(len(data)), hex.EncodeToString(sum[:])), nil
}
