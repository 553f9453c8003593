class DemoHUD extends Info;
