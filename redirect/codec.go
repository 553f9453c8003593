package redirect

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"runtime"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/uz"
)

// compress writes src compressed as kind to w; name is the original file
// name recorded in a .uz, sig its signature, workers the goroutines of the
// encoder (0: one per core).
func compress(w io.Writer, src io.Reader, kind uz.Kind, name string, sig int32, workers int) error {
	switch kind {
	case uz.KindUZ:
		zw, err := uz.NewWriter(w, name, sig)
		if err != nil {
			return err
		}
		if workers <= 0 {
			workers = runtime.GOMAXPROCS(0)
		}
		zw.SetWorkers(workers)
		if _, err := io.Copy(zw, src); err != nil {
			return err
		}
		return zw.Close()
	case uz.KindUZ2:
		zw := uz.NewWriter2(w, workers)
		if _, err := io.Copy(zw, src); err != nil {
			return err
		}
		return zw.Close()
	}
	return fmt.Errorf("redirect: no compressed format chosen")
}

// stream is an opened compressed stream.
type stream struct {
	kind   uz.Kind
	header uz.Header // .uz only
	r      io.Reader // the decoder
	closer io.Closer // the decoder, whose goroutines Close stops
}

// close stops the decoder's goroutines, if it has any left.
func (s *stream) close() { s.closer.Close() }

// errUnknownFormat reports a file that is neither .uz nor .uz2.
var errUnknownFormat = errors.New("not a .uz or .uz2 file (unknown first bytes)")

// openStream detects the format of br from its first bytes (hint, the
// format its file name suggests, decides when the bytes are too damaged to
// tell, so that the decoder reports where) and returns its decoder, whose
// output is capped at limit bytes and which decodes on workers goroutines
// (1: none; 0: one per core). Close the stream when done.
func openStream(br *bufio.Reader, hint uz.Kind, limit int64, workers int) (*stream, error) {
	head, err := br.Peek(uz.DetectSize)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, err
	}
	kind := uz.Detect(head)
	if kind == uz.KindUnknown {
		kind = hint
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	switch kind {
	case uz.KindUZ:
		zr, err := uz.NewReader(br, limit)
		if err != nil {
			return nil, err
		}
		zr.SetWorkers(workers)
		return &stream{kind: kind, header: zr.Header, r: zr, closer: zr}, nil
	case uz.KindUZ2:
		zr := uz.NewReader2(br, limit)
		zr.SetWorkers(workers)
		return &stream{kind: kind, r: zr, closer: zr}, nil
	}
	return nil, errUnknownFormat
}

// copyStream decodes s into w. A .uz stream whose Huffman tree is not the
// engine's (uz.ErrNonCanonical) is complete: nonCanonical reports it.
func copyStream(w io.Writer, s *stream) (n int64, nonCanonical bool, err error) {
	n, err = s.r.(io.WriterTo).WriteTo(w)
	if errors.Is(err, uz.ErrNonCanonical) {
		return n, true, nil
	}
	return n, false, err
}

// checkPackage reads the package in r (size bytes) and checks that it is
// whole: header and tables parse within the data and every export's data
// lies inside it. A stream that decodes cleanly can still be short (a .uz2
// cut at a chunk border); this is how such a file is caught.
func checkPackage(r io.ReaderAt, size int64) (*format.File, error) {
	f, err := format.NewFile(r, size)
	if err != nil {
		return nil, err
	}
	for i, ex := range f.Exports {
		if ex.SerialSize <= 0 {
			continue
		}
		if end := int64(ex.SerialOffset) + int64(ex.SerialSize); ex.SerialOffset < 0 || end > size {
			return nil, &format.FormatError{Offset: size,
				Msg: fmt.Sprintf("export %d's data (%d bytes at offset %d) ends past the end of the file", i, ex.SerialSize, ex.SerialOffset)}
		}
	}
	return f, nil
}
