package uz

import (
	"errors"
	"fmt"
)

// ErrLimit is wrapped by the error a reader returns when the decompressed
// output would exceed the caller's limit.
var ErrLimit = errors.New("output exceeds limit")

// ErrNonCanonical is wrapped by the error a Reader returns, instead of
// io.EOF and after delivering all data, when a .uz stream is well formed
// but its Huffman tree is not the one the engine builds for the decoded
// symbol counts. The engine's tree builder is deterministic, so every file
// the engine (or a faithful encoder such as Writer) writes passes; a
// corrupted tree that still decodes almost never does. A caller that wants
// to accept files from other encoders can treat this error as success.
var ErrNonCanonical = errors.New("non-canonical huffman tree")

// FormatError reports corrupt or truncated compressed input. Offset is the
// byte offset in the compressed stream (counted from its first byte, the
// signature of a .uz or the first chunk header of a .uz2) at which the
// decoder noticed the problem. Err, when set, is a cause callers can test
// with errors.Is (io.ErrUnexpectedEOF for truncation, ErrLimit for output
// beyond the caller's limit).
type FormatError struct {
	Offset int64
	Msg    string
	Err    error
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("uz: offset %d: %s", e.Offset, e.Msg)
}

func (e *FormatError) Unwrap() error { return e.Err }

// UnsupportedError reports a well-formed input this package does not write
// or read, such as an unknown .uz signature.
type UnsupportedError string

func (e UnsupportedError) Error() string { return "uz: unsupported: " + string(e) }
