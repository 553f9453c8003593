package cache

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/upkdeps/upkdeps/internal/fsutil"
	"github.com/upkdeps/upkdeps/search"
)

// Op is what an Action does.
type Op string

// The operations of a plan. Skip and Refuse change nothing; a refusal is a
// problem the user should look at (an unsafe name, a conflict), a skip is
// not.
const (
	OpMkdir   Op = "mkdir"   // create folder Dst
	OpCopy    Op = "copy"    // copy Src to Dst atomically; Dst does not exist
	OpReplace Op = "replace" // copy Src over Dst, which has other content (forced)
	OpExists  Op = "exists"  // Dst already holds Src's bytes: nothing to copy
	OpRemove  Op = "remove"  // remove Src
	OpIni     Op = "ini"     // set Key=Value in cache.ini, atomically
	OpSkip    Op = "skip"    // nothing to do for Subject
	OpRefuse  Op = "refuse"  // Subject is not touched: Reason says why
)

// Action is one step of a Plan. Paths are absolute.
type Action struct {
	Op       Op
	Src, Dst string
	Key      string // OpIni: the cache.ini key
	Value    string // OpIni: the new value ("" marks an entry moved into the install, as the engine writes it)
	Old      string // OpIni: the value before ("" for a new line)
	NewLine  bool   // OpIni: the key is added
	Subject  string // OpSkip, OpRefuse: the entry concerned; "" when it is the file Src
	Why      Reason // the purpose of a removal, the cause of a skip or refusal
}

// Reason says why an action is in a plan: a sentence that may name one
// path, kept apart so that it is shown like the plan's other paths
// ("installed as ../System/Foo.u with the same GUID").
type Reason struct {
	Text  string // the sentence, or its part before Path
	Path  string // a path the sentence names ("" for none)
	After string // the rest of the sentence after Path
	// Hint is the caller's option the sentence ends with (zero: none).
	Hint Hint
}

// Option is an option of a plan's caller that a Reason refers to.
type Option string

// The options a Hint names.
const (
	OptionForce Option = "Force" // ExtractOptions.Force, AddOptions.Force
	OptionTo    Option = "To"    // ExtractOptions.To
)

// Hint names the option that would change a refusal, or, with Used, the
// option that made an action (a replacement with Force). The library's
// words leave the option's spelling to the caller, which knows it (a
// command line appends "(use --force to replace it)").
type Hint struct {
	Option Option // "" for no hint
	Would  string // what setting Option would do: "replace it", "copy anyway"
	Used   bool   // Option was set and made the action
}

// String is the hint in the library's words, as Format appends it:
// " (Force would replace it)", or ", with Force" for one Used.
func (h Hint) String() string {
	switch {
	case h.Option == "":
		return ""
	case h.Used:
		return ", with " + string(h.Option)
	}
	return " (" + string(h.Option) + " would " + h.Would + ")"
}

// because is a Reason without a path.
func because(text string) Reason { return Reason{Text: text} }

// becausePath is a Reason that names path between before and after.
func becausePath(before, path, after string) Reason {
	return Reason{Text: before, Path: path, After: after}
}

// with returns r ending with the hint h.
func (r Reason) with(h Hint) Reason { r.Hint = h; return r }

// Format renders the reason, showing its path through rel and its hint
// in the library's words (Hint.String).
func (r Reason) Format(rel func(string) string) string { return r.FormatWith(rel, nil) }

// FormatWith is Format with the hint rendered by hint (nil:
// Hint.String).
func (r Reason) FormatWith(rel func(string) string, hint func(Hint) string) string {
	s := r.Text
	if r.Path != "" {
		s += rel(r.Path)
	}
	s += r.After
	if r.Hint.Option != "" {
		if hint == nil {
			hint = Hint.String
		}
		s += hint(r.Hint)
	}
	return s
}

// Plan is a list of actions computed from the cache and the file system as
// they are. Printing the actions is the dry run; Run performs them in
// order, so a real run prints exactly what the dry run did.
type Plan struct {
	Actions []Action
	iniPath string
}

// Refusals returns the number of OpRefuse actions.
func (p *Plan) Refusals() int {
	n := 0
	for _, a := range p.Actions {
		if a.Op == OpRefuse {
			n++
		}
	}
	return n
}

// Changes reports whether the plan changes anything on disk.
func (p *Plan) Changes() bool {
	for _, a := range p.Actions {
		switch a.Op {
		case OpMkdir, OpCopy, OpReplace, OpRemove, OpIni:
			return true
		}
	}
	return false
}

// Run performs the actions in order and calls done (if not nil) after each
// one, skips and refusals included. It stops at the first failure and
// returns it; what was done before stays done. Every step is atomic and the
// steps of a move are ordered (copy, remove the cache file, then mark the
// cache.ini entry moved) so that after a failure or a crash at any point
// no file is lost, the cache is in a state Open describes, and running the
// same command again completes the job. ctx done, it stops before the
// next action with ctx's error: as after a failure, what is done stays
// done and running again completes the job.
func (p *Plan) Run(ctx context.Context, done func(Action)) error {
	for _, a := range p.Actions {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := p.do(a); err != nil {
			return err
		}
		if done != nil {
			done(a)
		}
	}
	return nil
}

func (p *Plan) do(a Action) error {
	switch a.Op {
	case OpMkdir:
		if err := os.MkdirAll(a.Dst, 0o755); err != nil {
			return fmt.Errorf("cache: %w", err)
		}
	case OpCopy, OpReplace:
		if err := fsutil.CopyFileAtomic(a.Src, a.Dst, a.Op == OpReplace); err != nil {
			return fmt.Errorf("cache: %w", err)
		}
	case OpExists:
		same, err := fsutil.SameContent(a.Src, a.Dst)
		if err != nil {
			return fmt.Errorf("cache: %w", err)
		}
		if !same {
			return fmt.Errorf("cache: %s changed since the plan was made", a.Dst)
		}
	case OpRemove:
		if err := fsutil.RemoveFile(a.Src); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("cache: %w", err)
		}
	case OpIni:
		doc, err := readIniDoc(p.iniPath)
		if err != nil {
			return err
		}
		if _, err := doc.set(a.Key, a.Value); err != nil {
			return err
		}
		return doc.write()
	}
	return nil
}

// Format renders the action as one line of text; rel shortens paths for
// display (nil prints them as they are). Names from files are quoted when
// they hold anything but printable characters.
func (a Action) Format(rel func(string) string) string { return a.FormatWith(rel, nil) }

// FormatWith is Format with the reason's hint rendered by hint (nil:
// Hint.String).
func (a Action) FormatWith(rel func(string) string, hint func(Hint) string) string {
	if rel == nil {
		rel = func(p string) string { return p }
	}
	reason := a.Why.FormatWith(rel, hint)
	switch a.Op {
	case OpMkdir:
		return fmt.Sprintf("mkdir    %s", rel(a.Dst))
	case OpCopy:
		return fmt.Sprintf("copy     %s -> %s", rel(a.Src), rel(a.Dst))
	case OpReplace:
		return fmt.Sprintf("replace  %s -> %s (%s)", rel(a.Src), rel(a.Dst), reason)
	case OpExists:
		return fmt.Sprintf("exists   %s (same bytes as %s)", rel(a.Dst), rel(a.Src))
	case OpRemove:
		if reason == "" {
			return fmt.Sprintf("remove   %s", rel(a.Src))
		}
		return fmt.Sprintf("remove   %s (%s)", rel(a.Src), reason)
	case OpIni:
		s := fmt.Sprintf("ini      %s: %s=%s", rel(a.Dst), a.Key, Printable(a.Value))
		switch {
		case a.NewLine:
			s += " (new line)"
		case a.Value == "" && a.Old != "":
			s += " (was " + Printable(a.Old) + ": moved into the install)"
		case a.Old != a.Value:
			s += " (was " + Printable(a.Old) + ")"
		}
		return s
	case OpSkip, OpRefuse:
		subject := a.Subject
		if subject == "" {
			subject = rel(a.Src)
		}
		return fmt.Sprintf("%-8s %s: %s", a.Op, subject, reason)
	}
	return string(a.Op)
}

// Printable returns s, or s quoted Go-style when it holds control or other
// non-printable characters, so a hostile name cannot drive a terminal.
func Printable(s string) string {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\uFFFD' {
			return fmt.Sprintf("%q", s)
		}
	}
	if s != strings.TrimSpace(s) {
		return fmt.Sprintf("%q", s)
	}
	return s
}

// subject names an entry in skip and refuse lines: key and name.
func subject(e *Entry) string {
	if e.Name == "" {
		return e.Key
	}
	return e.Key + " " + Printable(e.Name)
}

// iniAction marks key with value in the cache's cache.ini.
func (c *Cache) iniAction(key, value, old string, isNew bool) Action {
	return Action{Op: OpIni, Dst: c.iniPath, Key: key, Value: value, Old: old, NewLine: isNew}
}

func (c *Cache) newPlan() *Plan { return &Plan{Actions: []Action{}, iniPath: c.iniPath} }

// newWritePlan starts the plan of a command that changes the cache: first
// the temporary files that its killed runs (or any upkdeps write) left in
// the cache folder are removed. No other writer can be writing them: a
// writer holds the folder's lock (Options.Lock).
func (c *Cache) newWritePlan() *Plan {
	p := c.newPlan()
	for _, s := range c.strays {
		if s.Kind == KindOwnTemp {
			p.Actions = append(p.Actions, Action{Op: OpRemove, Src: s.File, Why: because("left by an interrupted upkdeps write")})
		}
	}
	return p
}

// controlTarget returns why dst must not be written, or "": upkdeps's own
// files (cache.ini, manifest.json, the lock, temporary files) are never
// replaced by package data, --force or not.
func controlTarget(dst string) string {
	if fsutil.IsControlFile(filepath.Base(dst)) {
		return " is a file upkdeps keeps for itself: never replaced"
	}
	return ""
}

// Select returns the keys of the entries args name: a GUID (every
// generation of it in UE2), a key ("GUID-2"), or an original file name with
// or without its extension, ignoring case. An argument that matches nothing
// is an error naming it.
func (c *Cache) Select(args []string) ([]string, error) {
	var keys []string
	seen := map[string]bool{}
	var unmatched []string
	for _, arg := range args {
		found := false
		for i := range c.entries {
			e := &c.entries[i]
			if strings.EqualFold(arg, e.Key) || strings.EqualFold(arg, e.GUID) ||
				e.Name != "" && (strings.EqualFold(arg, e.Name) || strings.EqualFold(arg, PackageName(e.Name))) {
				found = true
				if !seen[e.Key] {
					seen[e.Key] = true
					keys = append(keys, e.Key)
				}
			}
		}
		if !found {
			unmatched = append(unmatched, arg)
		}
	}
	if len(unmatched) > 0 {
		return nil, fmt.Errorf("cache: no entry in %s matches %s", c.Dir, strings.Join(quoteAll(unmatched), ", "))
	}
	return keys, nil
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = fmt.Sprintf("%q", v)
	}
	return out
}

// TargetDir returns the folder the engine's MoveCacheEntry moves a cache
// file named name into, by the Paths placement rule (search.PlacementDir):
// the first of paths (the ini's [Core.System] Paths, as written) that ends
// with the name's extension (from its last dot, ignoring case), up to and
// including its last "/", "\" or ":", relative to systemDir. ok is false
// when the name has no extension or no entry takes it.
func TargetDir(name string, paths []string, systemDir string) (dir string, ok bool) {
	dir, i := search.PlacementDir(name, paths, systemDir)
	return dir, i >= 0
}
