// Package livemap works out the live package map of a server: the packages
// it sends its clients, which are not only the game ini's ServerPackages.
//
// Sources, each entry naming its file and line:
//
//   - The game ini's ServerPackages ([Engine.GameEngine], and XC_Engine's
//     section), as package ini reads them.
//
//   - A class the server runs (a ServerActors class, or one of
//     Options.Mutators) whose mutator switch (SwitchProperty: UT2004's
//     bAddToServerPackages, UT99 469c's bAddToPackageMap) is True in its
//     default properties (format.File.ClassDefaultBool), or, when they do
//     not set it, in its parent classes' (a class's defaults hold what
//     differs from its parent's), up to the engine's own classes.
//     Mutator.PreBeginPlay then adds the class's package to the package
//     map (AddToPackageMap, UT2004 v3204 on: the Beyond Unreal wiki's
//     "Package map" page). The source is the package file whose defaults
//     set it. A class section of the game ini setting the switch does
//     nothing (the switch is not a config variable): such lines are
//     notes (IgnoredSwitchLines).
//
//   - VoteSys (github.com/Deaod/VoteSys: README.md, Docs/setup.md and
//     USrc/MutVoteSys.uc at 6100075): VoteSys.ini's [ServerSettings]
//     bManageServerPackages=True makes it send each preset's packages
//     (VoteSysPresets.ini [VS_PresetConfigN], PresetName, Category,
//     Mutators=Pkg.Class[,Pkg.Class], Packages=, InheritFrom naming any
//     preset by its exact "Category/PresetName", bDisabled): its mutators'
//     packages, then its Packages, bases' first. Before UT 469c, or with
//     bUseServerPackagesCompatibilityMode, it writes them to ServerPackages
//     after DefaultPackages (the ini's ServerPackages when none are
//     listed); from 469c on (read from Engine.u through Options.Find) it
//     leaves the ini's ServerPackages and adds the preset's to the package
//     map. With the switch off VoteSys leaves ServerPackages alone.
//
//   - MVES, Map Vote Extended (github.com/peterekepeter/ut99-mves:
//     docs/quickstart.txt, docs/feature-documentation.md, the release
//     MVE_Config.ini, and MapVote.uc, MV_Result.uc and MV_Aliases.uc at
//     1a84379): [MVES.MapVote] bOverrideServerPackages=True makes it write
//     ServerPackages from its client package (ClientPackage, which MVES
//     sets to its own package's name), ClientScreenshotPackage,
//     ClientLogoTexture's package, the voted game type's Packages= field
//     (after those of the game types its Extends= indices name)
//     and MainServerPackages=("A","B",...), aliases (Aliases[N]=<key>
//     value) expanded in each list; each game type a CustomGame[N]=(
//     bEnabled=True,GameName=...,RuleName=...,GameClass=...,
//     MutatorList=...,Packages=...) line. With bResetServerPackages True
//     (its default) or MainServerPackages empty, MVES takes the game ini's
//     ServerPackages as MainServerPackages. With the switch off MVES
//     leaves ServerPackages alone.
//
//   - xVoting, UT2004's own map vote (xVotingHandler.uc, VotingHandler.uc
//     and GameInfo.uc of the UT2004 script tree): with [Engine.GameInfo]
//     VotingHandlerType=xVoting.xVotingHandler, each [xVoting.
//     xVotingHandler] GameConfig=(GameClass=...,GameName=...,Mutators=...)
//     line is a preset whose game class and mutators the server loads;
//     xVoting manages no ServerPackages, and with bMapVote off (its
//     default) no game config is voted.
//
// Every preset's mutators and actors whose switch (SwitchProperty) is on
// add their package to the preset's Packages (FromDefaults), sent while it
// runs whatever manages ServerPackages.
//
// A mapvote's presets (VoteSys), game types (MVES) and game configs
// (xVoting) are all Presets here, named "Category/PresetName",
// "GameName/RuleName" and GameName. What the
// package does not read (MVES's client package while its ClientPackage
// is empty, the packages of MVES's map overrides, VoteSys leaving out
// ServerSideOnly packages, mutators given on the command line unless
// Options.Mutators names them, a switch whose parent class's package is
// not found) is listed
// in Map.Notes, not guessed.
package livemap
