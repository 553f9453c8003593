package graph

import "github.com/upkdeps/upkdeps/ini"

// IsStock reports whether name is a retail code package of a supported
// game (ini.IsStockCode: the code packages of the game profiles' stock
// lists). Clients always have them, so a ServerSideOnly flag on one (UT99's
// UWindow) harms nobody, and a redirect need not serve them. For every
// retail file of one game (maps, textures, sounds) use ini.StockOf.
func IsStock(name string) bool { return ini.IsStockCode(name) }

// isRetail reports whether a retail file of the install's game (not only
// code: UT99's Announcer.uax carries ServerSideOnly, yet every client has
// it) bears the package name. stock is the game's own list (ini.OwnStockOf);
// for a game without one (nil) any known game's list speaks, so a UT99 mod
// game still exempts UT99's files. With a list, a mod named like another
// game's retail texture package is checked like any mod.
func isRetail(stock *ini.Stock, name string) bool {
	if stock != nil {
		return stock.HasPackage(name)
	}
	return ini.IsStockPackage(name)
}
