class DemoGameInfo extends GameInfo;

// DemoLegacy.OldThing is only mentioned in this comment.
var DemoActor Spawned;
var class<DemoRifle> StartWeapon;
var DemoExtras.Helper Help;
var string Note;

function PostBeginPlay()
{
	Note = "DemoLegacy.Stuff in a string does not count";
	Spawned = Spawn(class'DemoBase.DemoActor');
}

defaultproperties
{
	StartWeapon=class'DemoWeapons.DemoRifle'
}
