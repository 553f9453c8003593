package ini

// Limits on what Parse accepts. Real game inis are well below them (the
// largest in our corpus is 150 KB with lines under 1 KB).
const (
	// MaxFileSize is the largest ini file, in bytes, that Load and Parse
	// accept.
	MaxFileSize = 64 << 20
	// MaxLineLength is the longest line, in bytes of UTF-8 text, that Parse
	// accepts.
	MaxLineLength = 1 << 20
	// MaxKeyLines is the most key=value lines Parse accepts in one file
	// (UnrealTournament.ini has about 3,000). It bounds memory: every line
	// costs a few hundred bytes once parsed.
	MaxKeyLines = 100_000

	// maxNameWork bounds the name comparisons gopkg.in/ini.v1 makes while it
	// parses: it finds an existing section or key by walking a list, so a file
	// with n distinct keys in one section costs about n*n/2 string comparisons
	// (10,000 keys: 0.5 s; 100,000 keys: 45 s). The largest real ini in our
	// corpus needs under 2 million; 64 million is about half a second.
	maxNameWork = 64 << 20
)
