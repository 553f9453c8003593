class DemoSkinInfo extends Info;
