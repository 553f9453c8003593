package check

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/index"
)

// Candidates looks every missing package and object of findings up in
// the package index db and returns what Report.Index holds. pins are the
// GUIDs the install's download cache pins (install.Install.CachePins),
// games the Unreal Archive games of the install
// (unrealarchive.GamesFor): none, no catalogue versions.
func Candidates(ctx context.Context, db *index.DB, findings []graph.Finding, pins map[string]string, games []string) (*Index, error) {
	cands, err := candidates(ctx, db, findings, pins, games)
	if err != nil {
		return nil, err
	}
	return &Index{DB: db.Path(), Candidates: cands}, nil
}

// candidates looks every fixable finding up in the index.
func candidates(ctx context.Context, db *index.DB, fs []graph.Finding, pins map[string]string, games []string) ([]FindingCandidates, error) {
	out := []FindingCandidates{}
	for _, f := range fs {
		switch f.Kind {
		case graph.MissingPackage:
			guid := pins[strings.ToLower(f.Package)]
			ps, err := db.Candidates(ctx, f.Package, guid)
			if err != nil {
				return nil, err
			}
			fc := FindingCandidates{Kind: f.Kind, Package: f.Package, GUID: guid, Candidates: ps}
			if fc.Archive, err = archiveCandidates(ctx, db, f, games); err != nil {
				return nil, err
			}
			out = append(out, fc)
		case graph.MissingObject, graph.ClassMismatch:
			target := f.Exporter()
			for _, o := range f.Objects {
				if !strings.EqualFold(o.Package, target) || o.Path == "" {
					continue
				}
				path, class := o.Path, o.Class
				ps, err := db.WithObject(ctx, target, path, class)
				if err != nil {
					return nil, err
				}
				var with []index.Package
				for _, p := range ps {
					if p.ObjectClass != "" && (class == "" || strings.EqualFold(p.ObjectClass, class)) {
						with = append(with, p)
					}
				}
				if with == nil {
					with = []index.Package{}
				}
				out = append(out, FindingCandidates{Kind: f.Kind, Package: target, Object: path, Class: class, Candidates: with})
			}
		}
	}
	return out, nil
}

// archiveCandidates returns the Unreal Archive's versions of a missing
// package, for items of the install's games: none for a package the game
// ships (an item that bundles Botpack.u is no source for Botpack), and a
// file whose extension cannot hold what is imported (Botpack.uax for
// classes) ranked last and marked unfit.
func archiveCandidates(ctx context.Context, db *index.DB, f graph.Finding, games []string) ([]index.ArchiveVersionSummary, error) {
	if len(games) == 0 || graph.IsStock(f.Package) {
		return nil, nil
	}
	vs, err := db.ArchiveVersions(ctx, f.Package, games...)
	if err != nil {
		return nil, err
	}
	var fit, unfit []index.ArchiveVersionSummary
	for _, v := range vs {
		j := v.Summary()
		if f.ImportsClasses() && !strings.EqualFold(filepath.Ext(v.File), ".u") {
			j.Unfit = true
			unfit = append(unfit, j)
			continue
		}
		fit = append(fit, j)
	}
	return append(fit, unfit...), nil
}
