package uz

import "strings"

// Ext returns the file extension of a format: ".uz" or ".uz2" ("" for
// KindUnknown).
func (k Kind) Ext() string {
	switch k {
	case KindUZ:
		return ".uz"
	case KindUZ2:
		return ".uz2"
	}
	return ""
}

// KindFor returns the compressed format the clients of a package's engine
// read: .uz for UE1 (versions below 100), .uz2 for UE2.
func KindFor(version uint16) Kind {
	if version >= 100 {
		return KindUZ2
	}
	return KindUZ
}

// KindForGeneration returns the format of an engine generation (1 or 2).
func KindForGeneration(gen int) Kind {
	if gen >= 2 {
		return KindUZ2
	}
	return KindUZ
}

// CompressedName returns the name a redirect publishes a file under:
// name + ".uz" or ".uz2".
func CompressedName(name string, k Kind) string { return name + k.Ext() }

// TrimExt returns name without a final .uz or .uz2 (in any case) and the
// format that extension names (KindUnknown and name itself when it has
// neither).
func TrimExt(name string) (string, Kind) {
	lower := strings.ToLower(name)
	switch {
	case strings.HasSuffix(lower, ".uz2"):
		return name[:len(name)-4], KindUZ2
	case strings.HasSuffix(lower, ".uz"):
		return name[:len(name)-3], KindUZ
	}
	return name, KindUnknown
}
