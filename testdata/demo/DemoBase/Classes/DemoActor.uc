//=============================================================================
// DemoActor: the base of the demo's actors.
//=============================================================================
class DemoActor extends Actor;

var() float Speed;
var() class<Actor> Effect;

defaultproperties
{
	Effect=class'DemoFXLib.Spark'
}
