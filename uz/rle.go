package uz

import (
	"fmt"
	"io"
)

// The engine's RLE (FCodecRLE): a run of up to 255 equal bytes is written
// as the byte itself, repeated min(run, 5) times, followed by the run
// length when the run is 5 or longer. Runs of the same byte longer than
// 255 are split. The state starts as "previous byte 0, run 0", so a
// leading run of zero bytes continues that virtual run.
const rleLead = 5

// rleEncoder holds the run in progress between calls.
type rleEncoder struct {
	prev  byte
	count int
}

// encode appends the RLE of p to dst, keeping the unfinished run.
func (e *rleEncoder) encode(dst, p []byte) []byte {
	prev, count := e.prev, e.count
	for _, b := range p {
		if b != prev || count == 255 {
			dst = appendRun(dst, prev, count)
			prev, count = b, 0
		}
		count++
	}
	e.prev, e.count = prev, count
	return dst
}

// flush appends the unfinished run.
func (e *rleEncoder) flush(dst []byte) []byte {
	dst = appendRun(dst, e.prev, e.count)
	e.count = 0
	return dst
}

func appendRun(dst []byte, b byte, count int) []byte {
	switch {
	case count == 1:
		return append(dst, b)
	case count < rleLead:
		for ; count > 0; count-- {
			dst = append(dst, b)
		}
		return dst
	default:
		return append(dst, b, b, b, b, b, byte(count))
	}
}

// rleDecoder undoes rleEncoder, reading from src.
type rleDecoder struct {
	src     io.Reader
	at      positioner // the input position errors name
	buf     []byte
	pos     int
	end     int
	srcDone bool

	prev      byte
	count     int  // equal bytes seen in the current run (engine's Count)
	needCount bool // the next input byte is a run length
	repeat    int  // copies of prev still to output
	what      string
}

func newRLEDecoder(src io.Reader, at positioner, what string) *rleDecoder {
	return &rleDecoder{src: src, at: at, buf: make([]byte, 32<<10), what: what}
}

func (d *rleDecoder) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if d.repeat > 0 {
			k := min(d.repeat, len(p)-n)
			fill(p[n:n+k], d.prev)
			n += k
			d.repeat -= k
			continue
		}
		if d.pos == d.end {
			if d.srcDone {
				break
			}
			m, err := d.src.Read(d.buf)
			d.pos, d.end = 0, m
			if err == io.EOF {
				d.srcDone = true
			} else if err != nil {
				return n, err
			}
			continue
		}
		if d.needCount {
			c := d.buf[d.pos]
			d.pos++
			if c < 2 {
				return n, d.at.position().errorf(nil, fmt.Sprintf("%s: run length %d (the engine requires >= 2)", d.what, c))
			}
			d.needCount = false
			d.count = 0
			if int(c) > rleLead {
				d.repeat = int(c) - rleLead
			}
			continue
		}
		// Fast path: copy bytes until a run reaches rleLead.
		in := d.buf[d.pos:d.end]
		out := p[n:]
		i := 0
		prev, count := d.prev, d.count
		for i < len(in) && i < len(out) {
			b := in[i]
			out[i] = b
			i++
			if b != prev {
				prev, count = b, 1
			} else if count++; count == rleLead {
				d.needCount = true
				break
			}
		}
		d.prev, d.count = prev, count
		d.pos += i
		n += i
	}
	if n == 0 && d.srcDone && d.pos == d.end && d.repeat == 0 {
		if d.needCount {
			return 0, d.at.position().eofError(d.what + " (missing run length)")
		}
		return 0, io.EOF
	}
	return n, nil
}

func fill(p []byte, b byte) {
	if len(p) == 0 {
		return
	}
	p[0] = b
	for k := 1; k < len(p); k *= 2 {
		copy(p[k:], p[:k])
	}
}
