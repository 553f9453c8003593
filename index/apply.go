package index

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/upkdeps/upkdeps/archive"
	"github.com/upkdeps/upkdeps/internal/fsutil"
)

// CopyStatus is what Apply did with one copy of a plan.
type CopyStatus string

// The statuses of a Copy and a Binary.
const (
	CopyPlanned     CopyStatus = "planned"     // to copy (a dry run stops here)
	CopyCopied      CopyStatus = "copied"      // written
	CopyPresent     CopyStatus = "present"     // the same content is installed there
	CopyRefused     CopyStatus = "refused"     // not copied: Reason says why
	CopyInterrupted CopyStatus = "interrupted" // not copied: the context was done
)

// Copy is one step of a plan as Apply placed and copied it.
type Copy struct {
	Step
	To     string     `json:"to"` // the file to write, relative to the game root, "/"-separated
	Status CopyStatus `json:"status"`
	Reason string     `json:"reason,omitempty"`
	// Binaries are the native binaries of the package (Name.dll, Name.so)
	// beside it in its source, brought with it into the same folder: the
	// engine loads a package's native code from the binary of its name.
	Binaries []Binary `json:"binaries,omitempty"`
	dst      string   // the absolute path of To
}

// Binary is a native binary copied with its package.
type Binary struct {
	From   string     `json:"from"` // the file, or "archive!member"
	To     string     `json:"to"`   // relative to the game root
	Status CopyStatus `json:"status"`
	Reason string     `json:"reason,omitempty"`
	src    Package
	dst    string
}

// ApplyOptions say where Apply puts the copies.
type ApplyOptions struct {
	// Place returns the folder a file of that name goes to (the Paths
	// entry the engine searches for its extension), false when none takes
	// it.
	Place func(fileName string) (dir string, ok bool)
	// Rel returns a path relative to the game root, for display.
	Rel func(path string) string
	// DryRun plans and compares without writing.
	DryRun bool
}

// Applied is what Apply did.
type Applied struct {
	Copies []Copy
	// RemovedTemps are the temporary files an earlier, killed run left
	// beside the files this one writes, removed before it copies (relative
	// to the game root).
	RemovedTemps []string
}

// Refused reports whether a copy or a binary was refused.
func (a *Applied) Refused() bool {
	for _, c := range a.Copies {
		if c.Status == CopyRefused {
			return true
		}
		for _, b := range c.Binaries {
			if b.Status == CopyRefused {
				return true
			}
		}
	}
	return false
}

// Apply copies every step of plan into its folder, atomically, with the
// native binaries beside it in its source; it never replaces an installed
// file (one with the same SHA-256 is "present", one with other content
// refuses the copy). The caller holds the install's lock, so the temporary
// files of a killed earlier run beside the destinations are removed first.
// When ctx is done the copies not yet made are "interrupted": the result
// says what was done, and the caller checks ctx.Err().
func (d *DB) Apply(ctx context.Context, plan *Plan, opt ApplyOptions) (*Applied, error) {
	out := &Applied{Copies: []Copy{}, RemovedTemps: []string{}}
	var dsts []string
	for _, s := range plan.Steps {
		c := place(ctx, s, opt)
		if c.dst != "" {
			dsts = append(dsts, c.dst)
		}
		for _, b := range c.Binaries {
			dsts = append(dsts, b.dst)
		}
		out.Copies = append(out.Copies, c)
	}
	if !opt.DryRun {
		// What a killed run left: its temporary files beside the files it
		// writes (the caller's lock says no other run is writing them now).
		removed, err := fsutil.RemoveStaleTemps(dsts)
		if err != nil {
			return nil, err
		}
		for _, r := range removed {
			out.RemovedTemps = append(out.RemovedTemps, filepath.ToSlash(opt.Rel(r)))
		}
	}
	for i := range out.Copies {
		if out.Copies[i].Status == CopyPlanned {
			d.apply(ctx, &out.Copies[i], opt.DryRun)
		}
	}
	return out, nil
}

// place chooses the destination of a step and finds its binaries.
func place(ctx context.Context, s Step, opt ApplyOptions) Copy {
	c := Copy{Step: s, Status: CopyPlanned}
	dir, ok := opt.Place(s.Copy.FileName)
	switch {
	case fsutil.SafeFileName(s.Copy.FileName) != nil:
		c.Status, c.Reason = CopyRefused, "unsafe file name"
	case !ok:
		c.Status, c.Reason = CopyRefused, fmt.Sprintf("no Paths entry takes %q files", filepath.Ext(s.Copy.FileName))
	default:
		c.dst = filepath.Join(dir, s.Copy.FileName)
		c.To = filepath.ToSlash(opt.Rel(c.dst))
		for _, b := range nativeBinaries(ctx, &s.Copy) {
			b.dst = filepath.Join(dir, path.Base(b.src.FileName))
			b.To = filepath.ToSlash(opt.Rel(b.dst))
			c.Binaries = append(c.Binaries, b)
		}
	}
	return c
}

// apply copies one planned copy and its binaries.
func (d *DB) apply(ctx context.Context, c *Copy, dryRun bool) {
	if ctx.Err() != nil {
		c.Status, c.Reason = CopyInterrupted, "not copied: interrupted"
	} else if same, exists := sameAsIndexed(c.dst, c.Copy.SHA256); exists {
		c.Status = CopyPresent
		if !same {
			c.Status, c.Reason = CopyRefused, "a file with other content is installed there"
		}
	} else if !dryRun {
		err := d.copyPackage(ctx, &c.Copy, c.dst)
		switch {
		case err == nil:
			c.Status = CopyCopied
		case ctx.Err() != nil:
			c.Status, c.Reason = CopyInterrupted, "not copied: interrupted"
		default:
			c.Status, c.Reason = CopyRefused, err.Error()
		}
	}
	if c.Status == CopyRefused || c.Status == CopyInterrupted {
		for j := range c.Binaries {
			c.Binaries[j].Status, c.Binaries[j].Reason = CopyRefused, "its package is not copied"
		}
		return
	}
	for j := range c.Binaries {
		b := &c.Binaries[j]
		b.Status = CopyPlanned
		if _, err := os.Lstat(b.dst); err == nil {
			b.Status = CopyPresent
			if sum, err := CopyTo(ctx, io.Discard, &b.src, archive.Limits{}); err != nil || !hasSum(b.dst, sum) {
				b.Status, b.Reason = CopyRefused, "a file with other content is installed there"
			}
		} else if !dryRun {
			if err := d.copyPackage(ctx, &b.src, b.dst); err != nil {
				b.Status, b.Reason = CopyRefused, err.Error()
			} else {
				b.Status = CopyCopied
			}
		}
	}
}

// nativeBinaries returns the native binaries of the package p in its source:
// the files (or members of the same archive folder) named like the package
// with the extension .dll or .so, any case, sorted. The engine loads a
// package's native code from the binary of its name: a .u copied without it
// loses its native classes.
func nativeBinaries(ctx context.Context, p *Package) []Binary {
	if !p.HasBytes || p.Path == "" || p.Compressed != "" {
		return nil
	}
	name := strings.TrimSuffix(p.FileName, filepath.Ext(p.FileName))
	isBinary := func(base string) bool {
		ext := strings.ToLower(path.Ext(base))
		return (ext == ".dll" || ext == ".so") && strings.EqualFold(strings.TrimSuffix(base, path.Ext(base)), name) &&
			fsutil.SafeFileName(base) == nil
	}
	var out []Binary
	if p.Member == "" {
		ents, err := os.ReadDir(filepath.Dir(p.Path))
		if err != nil {
			return nil
		}
		for _, e := range ents {
			if e.Type().IsRegular() && isBinary(e.Name()) {
				src := filepath.Join(filepath.Dir(p.Path), e.Name())
				out = append(out, Binary{From: src, src: Package{FileName: e.Name(), Path: src, HasBytes: true, Source: p.Source}})
			}
		}
		return out
	}
	outer, inner := "", p.Member
	if i := strings.LastIndex(p.Member, "!"); i >= 0 {
		outer, inner = p.Member[:i], p.Member[i+1:]
	}
	dir := path.Dir(inner)
	archive.Walk(ctx, p.Path, archive.Limits{}, func(m *archive.Member) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if m.Err == nil && m.Nested == outer && path.Dir(m.Name) == dir && isBinary(path.Base(m.Name)) {
			bp := Package{FileName: path.Base(m.Name), Path: p.Path, Member: m.Path(), HasBytes: true, Source: p.Source}
			out = append(out, Binary{From: bp.Where(), src: bp})
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].From < out[j].From })
	return out
}

// sameAsIndexed reports whether dst exists and, if so, whether it has the
// content whose SHA-256 is sum.
func sameAsIndexed(dst, sum string) (same, exists bool) {
	f, err := fsutil.OpenRegular(dst) // a named pipe there: refused, not read
	if errors.Is(err, fs.ErrNotExist) {
		return false, false
	}
	if err != nil {
		return false, true
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return false, true
	}
	return hex.EncodeToString(h.Sum(nil)) == sum, true
}

// hasSum reports whether the file dst has the SHA-256 sum.
func hasSum(dst, sum string) bool {
	same, _ := sameAsIndexed(dst, sum)
	return same
}

// copyPackage streams the indexed copy p to dst atomically (the bytes are
// checked against the index before dst appears); it never replaces a file
// (one that appeared since the plan is refused). When the bytes changed
// since they were indexed, the index is told to read the source again on
// its next add, so the advice in the error works.
func (d *DB) copyPackage(ctx context.Context, p *Package, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if _, err := os.Lstat(dst); err == nil {
		return fmt.Errorf("%s appeared meanwhile: not replaced", dst)
	}
	err := fsutil.WriteAtomicFunc(dst, 0o644, func(f *os.File) error {
		_, err := CopyTo(ctx, f, p, archive.Limits{})
		return err
	})
	if errors.Is(err, ErrChanged) && p.ID > 0 {
		d.ForgetContent(ctx, p) // best effort: a read-only index keeps its rows
	}
	return err
}
