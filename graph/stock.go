package graph

import "strings"

// stockPackages are code packages every retail copy of a game ships. Clients
// always have them, so a ServerSideOnly flag on one (UT99's UWindow) harms
// nobody, and a redirect need not serve them.
var stockPackages = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`
		Core Engine Editor Fire IpDrv IpServer UWeb UBrowser UTBrowser UTServerAdmin UTMenu UMenu
		UWindow Window WinDrv Render Botpack UnrealShare UnrealI UTMenu UDSDemo UnrealTournament
		Relics MultiMesh EpicCustomModels De
		GamePlay UnrealGame XGame XGame_rc XInterface XAdmin XWebAdmin XWeapons XWeapons_rc XPickups
		XPickups_rc XEffects XVoting GUI2K4 UT2k4Assault UT2k4AssaultFull Onslaught OnslaughtFull
		OnslaughtBP UTClassic Vehicles BonusPack SkaarjPack SkaarjPack_rc UT2004Weapons ClassicWeapons
		StreamlineFX UTV2004c UTV2004s IpServer Xinterface
		DeusEx DeusExUI DeusExConversations DeusExItems DeusExCharacters DeusExDeco DeusExSounds
		RuneI RuneServer
		KFMod KFChar KFGui KFmutators ROEngine ROEffects SwatGame SwatEquipment
		Announcer`) { // retail UT99's Announcer.uax carries ServerSideOnly, yet every client has it
		m[strings.ToLower(n)] = true
	}
	return m
}()

// IsStock reports whether name is a retail code package of a supported game.
func IsStock(name string) bool { return stockPackages[strings.ToLower(name)] }
