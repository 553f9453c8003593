package report

import (
	"context"
	"fmt"

	"github.com/upkdeps/upkdeps/check"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/redirect"
)

// FromInstall returns the Options of an install's page beside its check
// (c is what check.Run made the report from): the EditPackages order when
// the ini lists EditPackages, what a new client downloads (the ini's
// ServerPackages; with redirectDir, the sizes of that redirect folder's
// compressed files), the Paths folders and the packages nothing uses. It
// stops with ctx's error when ctx is done. Generator and MaxObjects are
// the caller's to set.
func FromInstall(ctx context.Context, in *install.Install, c check.Checked, redirectDir string) (Options, error) {
	var opt Options
	if len(in.Ini.EditPackages()) > 0 {
		res, _, err := in.Order(ctx, c.Graph, false)
		if err != nil {
			return opt, err
		}
		opt.Order = &res
	}
	sp, err := in.ServerPackagesFor("")
	if err != nil {
		return opt, err
	}
	stock := ini.StockOf(in.Game)
	opt.Downloads, err = redirect.NewDownloads(ctx, c.Graph, redirect.DownloadOptions{ServerPackages: sp,
		Generation: in.Search.Generation(), Stock: stock, Dir: redirectDir})
	if err != nil {
		return opt, err
	}
	opt.Folders = in.Folders()
	uopt := redirect.UnusedOptions{EditPackages: in.Ini.EditPackages(), Generation: in.Search.Generation(), Stock: stock}
	if c.Natives != nil {
		uopt.Natives = c.Natives
	}
	if opt.Unused, err = redirect.NewUnused(ctx, c.Graph, uopt); err != nil {
		return opt, err
	}
	return opt, ctx.Err()
}

// Summary is the one line that says what a page written to file holds:
// "upkdeps-report.html (1.2 MB): 40 packages, 2 error(s), 1 warning(s)".
// size is the page's length in bytes; packages the graph's packages.
func Summary(file string, size, packages int, s check.Summary) string {
	return fmt.Sprintf("%s (%s): %d packages, %d error(s), %d warning(s)", file, sizeLabel(size), packages, s.Errors, s.Warnings)
}

// sizeLabel writes a byte count for people: "1.2 MB".
func sizeLabel(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
