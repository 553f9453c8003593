// Package uz reads and writes the compressed files Unreal Engine redirect
// servers publish: UE1 .uz (signatures 1234 and 5678) and UE2 .uz2.
//
// A .uz file is an int32 signature, the original file name as an engine
// FString, then the output of the engine's codec chain (FCodecFull): RLE,
// BWT in blocks of 256 KiB, move-to-front, and Huffman; signature 5678 (UT
// v469 and later) runs a second RLE pass before Huffman. Writer reproduces
// the engine's encoder bit for bit, including its unsorted Huffman tree
// construction and its BWT sort order, so its output is byte-identical to
// files made by ucc compress. A .uz2 file is a sequence of zlib chunks of at
// most 32 KiB of input each; Writer2 compresses chunks in parallel.
//
// Memory: Reader and Reader2 hold one block (about 1.6 MiB and 150 KiB)
// whatever the input size. With SetWorkers(n) they decode one stream on
// several goroutines, with the same output and the same errors at the same
// offsets: Reader reads blocks ahead on one goroutine (the Huffman and
// move-to-front stages run over the whole stream, in order) and inverts
// the BWT of blocks on n-1 others, holding n+1 blocks of 256 KiB and a
// 1 MiB table per inverting goroutine (2 MiB in all for n = 2); Reader2
// inflates up to n chunks at once, holding n+2 chunks of 65 KiB. Writer2
// holds four chunks and a zlib state per worker. Writer holds the transformed stream, about the size of its input,
// until Close, because the Huffman stage writes its symbol count and code
// tree, both computed from the whole stream, before the first code.
//
// # Security
//
// Input to the readers is untrusted. A Reader or Reader2 never allocates
// from a size the input declares: .uz block lengths are checked against the
// engine's 256 KiB block, the original file name is limited to 1024
// characters, the Huffman tree to 256 leaves (parsed without recursion), and
// .uz2 chunk headers to 33096 compressed and 32768 uncompressed bytes.
// Output is capped by the caller's limit (DefaultLimit, 1 GiB, when none is
// given): output beyond it is an error wrapping ErrLimit, never data. A
// one-symbol Huffman tree, which would decode any number of symbols from no
// bits, is refused unless the stream is empty.
//
// Every BWT block is checked to be a single cycle ending at its declared
// last row, every .uz2 chunk to inflate to exactly its declared size, and a
// .uz stream to end with zero padding and no trailing bytes and to use the
// Huffman tree the engine builds for its symbols (ErrNonCanonical), so
// truncated or corrupted input is reported as a *FormatError with the byte
// offset where the decoder noticed it. Neither format carries a checksum of
// the original: a corruption that keeps the stream well formed (rare for
// .uz: in tests every flipped tree bit and 400 of 400 randomly flipped data
// bits were reported) decodes to wrong bytes without an error, and a .uz2
// cut exactly at a chunk border is a valid, shorter .uz2. Callers that know
// what to expect (a package's size or GUID) should compare.
package uz
