class Helper extends Info;
