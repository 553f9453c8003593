package archive

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// streamZips makes the walks of the test stream every nested zip longer
// than n bytes (n at least 1024, the last block the zip reader looks for
// its end record in).
func streamZips(t *testing.T, n int64) {
	old := nestedZipTail
	nestedZipTail = n
	t.Cleanup(func() { nestedZipTail = old })
}

// walkLog walks data as name and returns a line per member: its path,
// declared size and the CRC-32 of its bytes, or its error.
func walkLog(t *testing.T, name string, data []byte) []string {
	t.Helper()
	var log []string
	err := WalkReader(context.Background(), name, bytes.NewReader(data), int64(len(data)), Limits{}, func(m *Member) error {
		if m.Err != nil {
			log = append(log, fmt.Sprintf("%s %d: %v", m.Path(), m.Size, m.Err))
			return nil
		}
		b, err := m.ReadAll()
		if err != nil {
			log = append(log, fmt.Sprintf("%s %d: read: %v", m.Path(), m.Size, err))
			return nil
		}
		log = append(log, fmt.Sprintf("%s %d: %d bytes, CRC %08x", m.Path(), m.Size, len(b), crc32.ChecksumIEEE(b)))
		return nil
	})
	if err != nil {
		log = append(log, "walk: "+err.Error())
	}
	return log
}

// randomBytes returns n bytes that do not compress.
func randomBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// innerZip writes a zip of deflated and stored members (with data
// descriptors, as Go's writer makes them), a directory, a nested zip (too
// deep), an insecure name, and a member whose directory CRC-32 is wrong.
func innerZip(t *testing.T) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range []struct {
		name   string
		method uint16
		data   []byte
	}{
		{"System/A.u", zip.Deflate, bytes.Repeat([]byte("aaaa"), 1000)},
		{"Maps/", zip.Store, nil},
		{"Maps/B.unr", zip.Store, randomBytes(3000, 1)},
		{"deep.zip", zip.Store, zipOf(t, [2]string{"D.u", "d"})},
		{"../evil.u", zip.Deflate, []byte("evil")},
		{"Textures/C.utx", zip.Deflate, randomBytes(5000, 2)},
		{"Sounds/Bad.uax", zip.Deflate, randomBytes(2000, 3)},
		{"Empty.u", zip.Store, nil},
	} {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: m.name, Method: m.method})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(m.data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	// Spoil Sounds/Bad.uax's CRC-32 in the directory.
	i := bytes.Index(b, []byte("PK\x01\x02"))
	for i >= 0 {
		name := string(b[i+46 : i+46+int(binary.LittleEndian.Uint16(b[i+28:]))])
		if name == "Sounds/Bad.uax" {
			b[i+16] ^= 0xFF
		}
		next := bytes.Index(b[i+4:], []byte("PK\x01\x02"))
		if next < 0 {
			break
		}
		i += 4 + next
	}
	return b
}

// TestNestedZipStreamed: a zip nested in a zip or a .umod, streamed (its
// tail read once for the directory, then its members in order), walks
// as the same zip held in memory does: the same members, sizes, bytes and
// errors (too deep, insecure name, bad CRC-32).
func TestNestedZipStreamed(t *testing.T) {
	inner := innerZip(t)
	for _, outer := range []struct {
		name string
		data []byte
	}{
		{"x.zip", zipOf(t, [2]string{"Z.u", "zz"}, [2]string{"in.zip", string(inner)}, [2]string{"Y.u", "y"})},
		{"x.umod", umodOf(t, [2]string{"Z.u", "zz"}, [2]string{"in.zip", string(inner)}, [2]string{"Y.u", "y"})},
	} {
		held := walkLog(t, outer.name, outer.data)
		func() {
			streamZips(t, 1100)
			if int64(len(inner)) <= nestedZipTail {
				t.Fatalf("the inner zip (%d bytes) is not longer than the tail", len(inner))
			}
			streamed := walkLog(t, outer.name, outer.data)
			if strings.Join(held, "\n") != strings.Join(streamed, "\n") {
				t.Errorf("%s: held:\n%s\nstreamed:\n%s", outer.name, strings.Join(held, "\n"), strings.Join(streamed, "\n"))
			}
			nestedZipTail = 16<<20 + 128<<10
		}()
		want := []string{
			"Z.u 2: 2 bytes",
			"in.zip!System/A.u 4000: 4000 bytes",
			"in.zip!Maps/B.unr 3000: 3000 bytes",
			"in.zip!deep.zip 127: archive: " + outer.name + ": in.zip!deep.zip: an archive inside a nested archive: not read",
			"in.zip!../evil.u 4: archive: " + outer.name + ": in.zip!../evil.u: \"../evil.u\": insecure member name",
			"in.zip!Textures/C.utx 5000: 5000 bytes",
			"in.zip!Sounds/Bad.uax 2000: read: archive: " + outer.name + ": in.zip!Sounds/Bad.uax: zip: checksum error",
			"in.zip!Empty.u 0: 0 bytes",
			"Y.u 1: 1 bytes",
		}
		if len(held) != len(want) {
			t.Fatalf("%s: %d members, want %d:\n%s", outer.name, len(held), len(want), strings.Join(held, "\n"))
		}
		for i := range want {
			if !strings.HasPrefix(held[i], want[i]) {
				t.Errorf("%s: member %d: have %q, want %q...", outer.name, i, held[i], want[i])
			}
		}
	}
}

// TestNestedZipStreamedMemory: the walk of an 8 MiB zip nested in a zip,
// streamed, allocates a fraction of it (held, it took its size).
func TestNestedZipStreamedMemory(t *testing.T) {
	const size = 8 << 20
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.CreateHeader(&zip.FileHeader{Name: "Big.u", Method: zip.Store})
	w.Write(make([]byte, size-200))
	w, _ = zw.CreateHeader(&zip.FileHeader{Name: "Small.u", Method: zip.Deflate})
	w.Write([]byte("small"))
	zw.Close()
	outer := zipOf(t, [2]string{"in.zip", buf.String()})
	streamZips(t, 64<<10)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var log []string
	err := WalkReader(context.Background(), "x.zip", bytes.NewReader(outer), int64(len(outer)), Limits{}, func(m *Member) error {
		rc, err := m.Open()
		if err != nil {
			return err
		}
		defer rc.Close()
		h := crc32.NewIEEE()
		n, err := io.CopyBuffer(h, rc, make([]byte, 32<<10))
		log = append(log, fmt.Sprintf("%s=%d,%08x", m.Path(), n, h.Sum32()))
		return err
	})
	runtime.ReadMemStats(&after)
	if want := fmt.Sprintf("in.zip!Big.u=%d,%08x|in.zip!Small.u=5,%08x", size-200,
		crc32.ChecksumIEEE(make([]byte, size-200)), crc32.ChecksumIEEE([]byte("small"))); err != nil || strings.Join(log, "|") != want {
		t.Errorf("have %q, %v; want %q", log, err, want)
	}
	t.Logf("the walk of a %d-byte nested zip, streamed, allocated %d bytes", buf.Len(), after.TotalAlloc-before.TotalAlloc)
	if got := after.TotalAlloc - before.TotalAlloc; got > size/4 {
		t.Errorf("the walk allocated %d bytes for a %d-byte nested zip: want it streamed", got, buf.Len())
	}
}

// TestNestedZipStreamedOverlap: two directory entries of a streamed nested
// zip that point at the same stored bytes (the layout of an overlapping
// zip bomb): the first is read, the second is an error of its own.
func TestNestedZipStreamedOverlap(t *testing.T) {
	inner := zipOf(t, [2]string{"A.u", string(randomBytes(1500, 4))}, [2]string{"B.u", string(randomBytes(1500, 5))})
	i := bytes.LastIndex(inner, []byte("PK\x01\x02")) // B.u's entry
	binary.LittleEndian.PutUint32(inner[i+42:], 0)    // its local header: A.u's
	streamZips(t, 1024)
	log := walkLog(t, "x.zip", zipOf(t, [2]string{"in.zip", string(inner)}))
	if len(log) != 2 || !strings.HasPrefix(log[0], "in.zip!A.u 1500: 1500 bytes") ||
		!strings.Contains(log[1], "in.zip!B.u: stored at offset 0, inside the member before it") {
		t.Errorf("have:\n%s", strings.Join(log, "\n"))
	}
}

// TestNestedZipStreamedDirectoryTooFar: a streamed nested zip whose
// directory does not fit the kept tail is an error of its member, not of
// the outer archive, whose other members are walked.
func TestNestedZipStreamedDirectoryTooFar(t *testing.T) {
	var members [][2]string
	for i := range 40 {
		members = append(members, [2]string{fmt.Sprintf("System/Package%02d.u", i), string(randomBytes(100, uint64(i)))})
	}
	inner := zipOf(t, members...)
	streamZips(t, 1024)
	log := walkLog(t, "x.zip", zipOf(t, [2]string{"in.zip", string(inner)}, [2]string{"Y.u", "y"}))
	if len(log) != 2 || !strings.Contains(log[0], "in.zip "+fmt.Sprint(len(inner))+": archive: x.zip: in.zip: the zip directory starts more than 1024 bytes before the end") ||
		!strings.HasPrefix(log[1], "Y.u 1: 1 bytes") {
		t.Errorf("have:\n%s", strings.Join(log, "\n"))
	}
}
