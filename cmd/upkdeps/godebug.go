// The binary asks for the Go 1.21 net/http ServeMux. upkdeps serves no
// HTTP, yet net/http is linked (viper's afero, progressbar, brotli, and
// expvar through go4.org/readerutil, which the 7z reader uses), and
// expvar's init registers /debug/vars on the default mux. The newer mux
// records the file and line of each registration for its conflict
// errors (runtime.Caller): at start, that reads about 1 MB of the
// binary's line tables that nothing else needs. Without it every
// command's peak RSS is 0.3 MiB lower (version 12.8 against 13.1 MiB,
// the demo's check 15.9 against 16.2, 21 interleaved runs); the mux
// behaves the same for a pattern without a method or wildcard, which is
// all expvar registers. TestGodebugMux (depcheck_test.go) keeps the
// setting in the binary.

//go:debug httpmuxgo121=1
package main
