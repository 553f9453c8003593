package uz

import (
	"bytes"
	"io"
)

// The engine's move-to-front coder (FCodecMTF) over the whole stream: a
// 256-entry list starting 0..255; each byte is replaced by its index in the
// list and moved to the front.
type mtfList [256]byte

func newMTFList() mtfList {
	var l mtfList
	for i := range l {
		l[i] = byte(i)
	}
	return l
}

// encode replaces each byte of p by its list index, in place.
func (l *mtfList) encode(p []byte) {
	for j, b := range p {
		if l[0] == b {
			p[j] = 0
			continue
		}
		i := bytes.IndexByte(l[:], b)
		p[j] = byte(i)
		copy(l[1:i+1], l[:i])
		l[0] = b
	}
}

// decode replaces each index in p by its list byte, in place.
func (l *mtfList) decode(p []byte) {
	for j, i := range p {
		b := l[i]
		p[j] = b
		if i != 0 {
			copy(l[1:int(i)+1], l[:i])
			l[0] = b
		}
	}
}

// mtfDecoder decodes src on the fly.
type mtfDecoder struct {
	src  io.Reader
	list mtfList
}

func (d *mtfDecoder) Read(p []byte) (int, error) {
	n, err := d.src.Read(p)
	d.list.decode(p[:n])
	return n, err
}
