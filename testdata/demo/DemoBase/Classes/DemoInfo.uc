class DemoInfo extends Info;
