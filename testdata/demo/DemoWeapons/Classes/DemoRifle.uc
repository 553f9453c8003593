class DemoRifle extends Weapon;

var DemoGameInfo Game;
