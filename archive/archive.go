package archive

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/upkdeps/upkdeps/internal/fsutil"
)

// Kind is an archive format.
type Kind string

// The archive formats Walk reads.
const (
	Zip      Kind = "zip"
	UMOD     Kind = "umod"
	SevenZip Kind = "7z"
	RAR      Kind = "rar"
)

// KindOf returns the archive kind a file name's extension says, "" when the
// name is not an archive's. UT2004's installer files are .ut2mod, UT99's
// .umod: both are the same format.
func KindOf(name string) Kind {
	switch strings.ToLower(path.Ext(strings.ReplaceAll(name, `\`, "/"))) {
	case ".zip":
		return Zip
	case ".umod", ".ut2mod", ".ut4mod":
		return UMOD
	case ".7z":
		return SevenZip
	case ".rar":
		return RAR
	}
	return ""
}

// Limits bound what Walk reads from one archive. A zero field takes its
// default from DefaultLimits.
type Limits struct {
	MaxMembers    int   // members per archive (nested ones count too)
	MaxMemberSize int64 // bytes one member may expand to
	MaxTotal      int64 // bytes read from all members of one archive
	MaxNestedSize int64 // size of a nested archive (one not streamed is held in memory)
}

// DefaultLimits are generous for real mods (the largest UT2004 maps are a
// few hundred MiB; no mod ships tens of thousands of files) and small enough
// that a hostile archive cannot exhaust a machine.
var DefaultLimits = Limits{
	MaxMembers:    20000,
	MaxMemberSize: 1 << 30,
	MaxTotal:      16 << 30,
	MaxNestedSize: 256 << 20,
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.MaxMembers > 0 {
		d.MaxMembers = l.MaxMembers
	}
	if l.MaxMemberSize > 0 {
		d.MaxMemberSize = l.MaxMemberSize
	}
	if l.MaxTotal > 0 {
		d.MaxTotal = l.MaxTotal
	}
	if l.MaxNestedSize > 0 {
		d.MaxNestedSize = l.MaxNestedSize
	}
	return d
}

// ErrInsecurePath is the error of a member whose name is absolute, has a
// drive letter or climbs out with "..".
var ErrInsecurePath = errors.New("insecure member name")

// ErrTooDeep is the error of an archive member that is itself an archive
// inside a nested archive: Walk reads one level of nesting.
var ErrTooDeep = errors.New("only one level of nested archives is read")

// ErrLimit is wrapped by every error that a Limits field causes.
var ErrLimit = errors.New("limit exceeded")

// Error is an error about an archive or one of its members.
type Error struct {
	Archive string // the archive's path
	Member  string // "" for the archive itself; "outer!inner" when nested
	Err     error
}

func (e *Error) Error() string {
	if e.Member == "" {
		return "archive: " + e.Archive + ": " + e.Err.Error()
	}
	return "archive: " + e.Archive + ": " + e.Member + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Member is one file inside an archive. It is valid only during the call of
// the walk function that receives it.
type Member struct {
	Name    string // slash-separated path inside its archive, as stored
	Nested  string // the member of the outer archive that holds this one's archive ("" when not nested)
	Size    int64  // uncompressed size as the archive declares it
	ModTime time.Time
	CRC32   uint32 // 0 when the format keeps none
	// Err is set for a member that cannot be read (insecure name, declared
	// size over the limit); Open then returns it.
	Err error

	open  func() (io.ReadCloser, error)
	once  bool   // open works once: the archive is read front to back
	total *int64 // bytes read from the archive so far, for MaxTotal
	lim   Limits
	arch  string
	ctx   context.Context // the walk's: done, reads fail with its error
}

// Path names the member for messages and the index: "inner" or
// "outer!inner" when nested.
func (m *Member) Path() string {
	if m.Nested == "" {
		return m.Name
	}
	return m.Nested + "!" + m.Name
}

// Open returns the member's bytes. The reader fails with an error wrapping
// ErrLimit past the member's declared size or Limits.MaxMemberSize, and
// with an *Error when the archive's data is corrupt.
func (m *Member) Open() (io.ReadCloser, error) {
	if m.Err != nil {
		return nil, m.Err
	}
	rc, err := m.open()
	if err != nil {
		return nil, &Error{m.arch, m.Path(), err}
	}
	return &limitedReader{rc: rc, m: m, left: min(m.Size, m.lim.MaxMemberSize)}, nil
}

// ReadAll reads the whole member, within the limits.
func (m *Member) ReadAll() ([]byte, error) {
	rc, err := m.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	var buf bytes.Buffer
	// Grow as data arrives, not by the declared size (which is only
	// trusted as a ceiling).
	_, err = buf.ReadFrom(rc)
	return buf.Bytes(), err
}

// nestedStream walks a .rar nested in member m from m's reader.
func (w *walker) nestedStream(m *Member) error {
	rc, err := m.Open()
	if err != nil {
		m.Err = err
		return w.call(m)
	}
	defer rc.Close()
	err = w.walkList(func(yield func(entry) error) error { return w.listRARStream(rc, yield) }, m.Name)
	return w.nestedDone(m, err)
}

// readExact reads the whole member into a buffer of its declared size,
// allocated once (ReadAll's buffer grows by doubling: a member of 256 MiB
// took 512 MiB and, while growing, both buffers).
func (m *Member) readExact() ([]byte, error) {
	rc, err := m.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	buf := make([]byte, m.Size)
	if _, err := io.ReadFull(rc, buf); err != nil {
		if err == io.ErrUnexpectedEOF || err == io.EOF {
			err = &Error{m.arch, m.Path(), fmt.Errorf("member is shorter than its declared %d bytes", m.Size)}
		}
		return nil, err
	}
	// The reader fails past the declared size: read to its end.
	var one [1]byte
	if _, err := rc.Read(one[:]); err != nil && err != io.EOF {
		return nil, err
	}
	return buf, nil
}

// NestedBudget is the memory all walks of a process may hold for nested
// archives at once (held archives, and the tails of streamed zips): a walk
// that meets one waits (or stops when its context is done) while others
// hold more. With the default 256 MiB limit of one nested archive, two
// held ones at a time whatever the number of workers.
const NestedBudget = 512 << 20

// nested is the process's NestedBudget.
var nested = &budget{free: NestedBudget, changed: make(chan struct{})}

// budget is a count of bytes that callers take and give back, waiting
// while too few are free.
type budget struct {
	mu      sync.Mutex
	free    int64
	changed chan struct{} // closed and replaced at every release
}

func (b *budget) acquire(ctx context.Context, n int64) error {
	for {
		b.mu.Lock()
		if b.free >= n {
			b.free -= n
			b.mu.Unlock()
			return nil
		}
		ch := b.changed
		b.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (b *budget) release(n int64) {
	b.mu.Lock()
	b.free += n
	close(b.changed)
	b.changed = make(chan struct{})
	b.mu.Unlock()
}

type limitedReader struct {
	rc   io.ReadCloser
	m    *Member
	left int64
}

func (r *limitedReader) Read(p []byte) (int, error) {
	if err := r.m.ctx.Err(); err != nil {
		return 0, err
	}
	if r.left <= 0 {
		// One byte more than declared means the archive lied about the
		// size: stop instead of expanding a bomb.
		var one [1]byte
		n, err := r.rc.Read(one[:])
		if n > 0 {
			return 0, &Error{r.m.arch, r.m.Path(), fmt.Errorf("member expands past its declared %d bytes (or the %d-byte limit): %w", r.m.Size, r.m.lim.MaxMemberSize, ErrLimit)}
		}
		if err == nil {
			err = io.EOF
		}
		return 0, r.wrap(err)
	}
	if int64(len(p)) > r.left {
		p = p[:r.left]
	}
	n, err := r.rc.Read(p)
	r.left -= int64(n)
	*r.m.total += int64(n)
	if *r.m.total > r.m.lim.MaxTotal {
		return n, &Error{r.m.arch, r.m.Path(), fmt.Errorf("more than %d bytes read from the archive: %w", r.m.lim.MaxTotal, ErrLimit)}
	}
	if err == io.EOF && r.left > 0 {
		return n, &Error{r.m.arch, r.m.Path(), fmt.Errorf("member is %d bytes shorter than declared", r.left)}
	}
	return n, r.wrap(err)
}

func (r *limitedReader) wrap(err error) error {
	if err == nil || err == io.EOF {
		return err
	}
	var ae *Error
	if errors.As(err, &ae) {
		return err
	}
	return &Error{r.m.arch, r.m.Path(), err}
}

func (r *limitedReader) Close() error { return r.rc.Close() }

// SafeName returns name with backslashes as slashes, or an error wrapping
// ErrInsecurePath when it is not a local relative path (absolute, a drive
// letter, a ".." element, empty).
func SafeName(name string) (string, error) {
	n := strings.ReplaceAll(name, `\`, "/")
	if n == "" || strings.HasPrefix(n, "/") || strings.Contains(n, ":") || strings.ContainsRune(n, 0) {
		return "", fmt.Errorf("%q: %w", name, ErrInsecurePath)
	}
	for _, el := range strings.Split(n, "/") {
		if el == ".." {
			return "", fmt.Errorf("%q: %w", name, ErrInsecurePath)
		}
	}
	if !filepath.IsLocal(filepath.FromSlash(n)) {
		return "", fmt.Errorf("%q: %w", name, ErrInsecurePath)
	}
	return n, nil
}

// Walk calls fn for each file member of the archive at path, in the
// archive's order; members of an archive nested in it (one level) follow
// with Nested set, in place of the nested archive's own member; an archive
// nested deeper is passed with Err wrapping ErrTooDeep. A member that
// cannot be read is passed with Err set. An error from fn stops the
// walk and is returned; other errors are *Error values about the archive
// (it cannot be opened, is corrupt, or exceeds MaxMembers). When ctx is
// done the walk stops with ctx's error, before the next member and inside
// a member's reads.
func Walk(ctx context.Context, path string, lim Limits, fn func(*Member) error) error {
	kind := KindOf(path)
	if kind == "" {
		return &Error{path, "", errors.New("not an archive (.zip, .umod, .ut2mod, .7z, .rar)")}
	}
	// A named pipe or device is refused at once: opening one for reading
	// could wait forever.
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	w := &walker{ctx: ctx, path: path, lim: lim.withDefaults(), fn: fn}
	return unwrapCaller(w.walk(kind, f, st.Size(), ""))
}

// WalkReader is Walk over an archive already in memory or open elsewhere;
// name gives its kind and names it in errors.
func WalkReader(ctx context.Context, name string, r io.ReaderAt, size int64, lim Limits, fn func(*Member) error) error {
	kind := KindOf(name)
	if kind == "" {
		return &Error{name, "", errors.New("not an archive (.zip, .umod, .ut2mod, .7z, .rar)")}
	}
	w := &walker{ctx: ctx, path: name, lim: lim.withDefaults(), fn: fn}
	return unwrapCaller(w.walk(kind, r, size, ""))
}

type walker struct {
	ctx     context.Context
	path    string
	lim     Limits
	fn      func(*Member) error
	members int
	total   int64
}

// entry is what a format lister yields for one stored file.
type entry struct {
	name string
	size int64
	mod  time.Time
	crc  uint32
	dir  bool
	bad  error // a format-level problem with this entry
	open func() (io.ReadCloser, error)
	once bool // read front to back (.rar): open can be called once
}

func (w *walker) walk(kind Kind, r io.ReaderAt, size int64, nested string) error {
	list := map[Kind]func(io.ReaderAt, int64, func(entry) error) error{
		Zip: w.listZip, UMOD: w.listUMOD, SevenZip: w.list7z, RAR: w.listRAR,
	}[kind]
	return w.walkList(func(yield func(entry) error) error { return list(r, size, yield) }, nested)
}

// walkList walks the entries a lister yields: the members of the archive,
// or of the archive nested in its member nested.
func (w *walker) walkList(list func(yield func(entry) error) error, nested string) error {
	err := list(func(e entry) error {
		if err := w.ctx.Err(); err != nil {
			return callerErr{err}
		}
		if e.dir {
			return nil
		}
		w.members++
		if w.members > w.lim.MaxMembers {
			return &Error{w.path, "", fmt.Errorf("more than %d members: %w", w.lim.MaxMembers, ErrLimit)}
		}
		m := &Member{Name: e.name, Nested: nested, Size: e.size, ModTime: e.mod, CRC32: e.crc,
			open: e.open, once: e.once, total: &w.total, lim: w.lim, arch: w.path, ctx: w.ctx}
		name, nerr := SafeName(e.name)
		switch {
		case nerr != nil:
			m.Err = &Error{w.path, m.Path(), nerr}
		case e.bad != nil:
			m.Err = &Error{w.path, m.Path(), e.bad}
		case e.size < 0 || e.size > w.lim.MaxMemberSize:
			m.Err = &Error{w.path, m.Path(), fmt.Errorf("declared size %d is over the %d-byte limit: %w", e.size, w.lim.MaxMemberSize, ErrLimit)}
		default:
			m.Name = name
		}
		if inner := KindOf(m.Name); inner != "" && m.Err == nil {
			if nested == "" {
				return w.nested(inner, m)
			}
			m.Err = &Error{w.path, m.Path(), fmt.Errorf("an archive inside a nested archive: not read (%w)", ErrTooDeep)}
		}
		return w.call(m)
	})
	var ae *Error
	if err != nil && !errors.As(err, &ae) && !isCallerErr(err) {
		err = &Error{w.path, nested, err}
	}
	return err
}

// callerErr marks an error returned by the walk function so that it is
// passed back unchanged.
type callerErr struct{ err error }

func (e callerErr) Error() string { return e.err.Error() }
func (e callerErr) Unwrap() error { return e.err }

func (w *walker) call(m *Member) error {
	if err := w.fn(m); err != nil {
		return callerErr{err}
	}
	return nil
}

func unwrapCaller(err error) error {
	var ce callerErr
	if errors.As(err, &ce) {
		return ce.err
	}
	return err
}

func isCallerErr(err error) bool {
	var ce callerErr
	return errors.As(err, &ce)
}

// nested walks an archive member inside the archive. A .rar, and a .zip
// in an outer archive that can be read twice, are streamed (nestedStream,
// nestedZip); another is held in memory: read once into a buffer of its
// declared size (which the limit bounds), counted against NestedBudget,
// which the walks of a process share.
func (w *walker) nested(kind Kind, m *Member) error {
	if m.Size > w.lim.MaxNestedSize {
		m.Err = &Error{w.path, m.Path(), fmt.Errorf("nested archive of %d bytes is over the %d-byte limit: %w", m.Size, w.lim.MaxNestedSize, ErrLimit)}
		return w.call(m)
	}
	switch {
	case kind == RAR:
		// RAR is read front to back: streamed from the outer member,
		// never held.
		return w.nestedStream(m)
	case kind == Zip && !m.once:
		return w.nestedZip(m)
	}
	held := min(m.Size, NestedBudget)
	if err := nested.acquire(w.ctx, held); err != nil {
		return callerErr{err}
	}
	defer nested.release(held)
	data, err := m.readExact()
	if m.Size >= 64<<20 {
		// The buffer is garbage once the walk is done: give its pages
		// back now, before the next nested archive (here or in another
		// worker) asks for as many again.
		defer debug.FreeOSMemory()
	}
	if cerr := w.ctx.Err(); cerr != nil {
		return callerErr{cerr}
	}
	if err != nil {
		m.Err = err
		return w.call(m)
	}
	err = w.walk(kind, bytes.NewReader(data), int64(len(data)), m.Name)
	data = nil
	return w.nestedDone(m, err)
}

// nestedDone returns the error of the walk of the archive nested in m:
// a corrupt nested archive is an error of that member, passed to the walk
// function, not of the outer archive.
func (w *walker) nestedDone(m *Member, err error) error {
	if isCallerErr(err) {
		return err
	}
	if cerr := w.ctx.Err(); cerr != nil {
		return callerErr{cerr}
	}
	var ae *Error
	if errors.As(err, &ae) && ae.Member == m.Name && !errors.Is(err, ErrLimit) {
		m.Err = err
		return w.call(m)
	}
	return err
}
