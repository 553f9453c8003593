package graph

import "github.com/upkdeps/upkdeps/ini"

// IsStock reports whether name is a retail code package of a supported
// game (ini.IsStockCode: the code packages of the game profiles' stock
// lists). Clients always have them, so a ServerSideOnly flag on one (UT99's
// UWindow) harms nobody, and a redirect need not serve them. For every
// retail file of one game (maps, textures, sounds) use ini.StockOf.
func IsStock(name string) bool { return ini.IsStockCode(name) }

// isRetail reports whether any retail file of a known game (not only code:
// UT99's Announcer.uax carries ServerSideOnly, yet every client has it)
// bears the package name.
func isRetail(name string) bool { return ini.IsStockPackage(name) }
