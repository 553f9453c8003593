package cache

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/internal/fsutil"
)

// AddOptions adjust PlanAdd.
type AddOptions struct {
	// Force replaces a cache file of the same name that has other bytes.
	Force bool
}

// PlanAdd plans putting package files into the cache as a finished download
// would be: the file copied to GUID + Ext (UE1) or GUID-Generations.uxx
// (UE2, where Generations is the header's generation count, the number the
// engine names a download after) and a cache.ini line "key=file name" added
// or updated. The GUID comes from the header. A file that is not a package,
// belongs to the other engine generation, or whose name is not a plain file
// name is refused; the same package given twice is added once.
func (c *Cache) PlanAdd(files []string, opt AddOptions) *Plan {
	p := c.newWritePlan()
	added := map[string]string{} // key -> file that adds it
	for _, file := range files {
		refuse := func(reason string) {
			p.Actions = append(p.Actions, Action{Op: OpRefuse, Subject: Printable(file), Why: because(reason)})
		}
		refuseOther := func(other, note string, h Hint) {
			p.Actions = append(p.Actions, Action{Op: OpRefuse, Subject: Printable(file), Why: becausePath("", other, note).with(h)})
		}
		abs, key, refusal := c.addable(file)
		if refusal != "" {
			refuse(refusal)
			continue
		}
		name := filepath.Base(abs)
		if prev, ok := added[key]; ok {
			p.Actions = append(p.Actions, Action{Op: OpSkip, Subject: Printable(file), Why: becausePath("the same package as ", prev, "")})
			continue
		}
		added[key] = abs
		dst := filepath.Join(c.Dir, c.FileName(key))
		if e := c.EntryByKey(key); e != nil && e.File != "" {
			dst = e.File // keep the spelling present on disk
		}
		if note := controlTarget(dst); note != "" {
			refuseOther(dst, note, Hint{})
			continue
		}
		op, reason := OpCopy, Reason{}
		if st, err := os.Stat(dst); err == nil {
			same, err := fsutil.SameContent(abs, dst)
			switch {
			case st.IsDir():
				refuseOther(dst, " is a folder", Hint{})
				continue
			case err != nil:
				refuse(err.Error())
				continue
			case same:
				op = OpExists
			case !opt.Force:
				refuseOther(dst, " exists with other content", Hint{Option: OptionForce, Would: "replace it"})
				continue
			default:
				op, reason = OpReplace, because("other content").with(Hint{Option: OptionForce, Used: true})
			}
		}
		p.Actions = append(p.Actions, Action{Op: op, Src: abs, Dst: dst, Why: reason})
		switch e := c.EntryByKey(key); {
		case e == nil || e.Line == 0:
			p.Actions = append(p.Actions, c.iniAction(key, name, "", true))
		case e.Name != name:
			p.Actions = append(p.Actions, c.iniAction(key, name, e.Name, false))
		}
	}
	return p
}

// addable reads file's header for PlanAdd: its absolute path and cache key,
// or why it is refused (not a package, an unsafe name, the other engine
// generation, no generations in a UE2 header).
func (c *Cache) addable(file string) (abs, key, refusal string) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return "", "", err.Error()
	}
	name := filepath.Base(abs)
	if err := fsutil.SafeFileName(name); err != nil {
		var ne *fsutil.NameError
		if errors.As(err, &ne) {
			err = errors.New(ne.Reason)
		}
		return "", "", "unsafe file name: " + err.Error()
	}
	f, err := format.Open(abs)
	if err != nil {
		var pe *format.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return "", "", "not a package: " + err.Error()
	}
	guid, version, gens := f.GUID, f.Version, len(f.Generations)
	f.Close()
	switch ue2 := version >= 100; {
	case ue2 && c.Generation == 1:
		return "", "", fmt.Sprintf("a UE2 package (version %d) for a UE1 cache", version)
	case !ue2 && c.Generation == 2:
		return "", "", fmt.Sprintf("a UE1 package (version %d) for a UE2 cache", version)
	case c.Generation == 2 && gens == 0:
		return "", "", "no generations in the header"
	}
	return abs, c.Key(guid, gens), ""
}
