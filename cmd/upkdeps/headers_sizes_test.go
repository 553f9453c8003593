package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHeadersUE2EarlySizeChecks: an early UE2 header that has a
// VERIFY_CLASS_SIZES section after its static-link block (XIII's have
// none) keeps it, no flag given: the section lists the exported classes
// only, not the native noexport Engine, and a rewrite in place changes no
// byte; a modder's variable is still all --check reports.
func TestHeadersUE2EarlySizeChecks(t *testing.T) {
	files := map[string]string{"Engine/Classes/Engine.uc": "class Engine extends Object native noexport transient;\nvar int CurrentTickRate;\n"}
	for name, text := range headerTree {
		files[name] = text
	}
	root := writeHeaderTree(t, files)
	if _, _, code := runHeaders(t, root, "--root", root, "--layout", "ue2-early", "--eol", "lf", "Core", "Engine"); code != exitOK {
		t.Fatalf("write: code %d", code)
	}
	hdr := filepath.Join(root, "Engine", "Inc", "EngineClasses.h")
	text, err := os.ReadFile(hdr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(text, []byte("\tUEngine::StaticClass(); \\\n")) || bytes.Contains(text, []byte("VERIFY_CLASS_SIZE")) {
		t.Fatalf("ue2-early without a header: Engine registered, no size checks:\n%s", text)
	}
	text = append(text, "\n#ifdef VERIFY_CLASS_SIZES\nVERIFY_CLASS_SIZE_NODIE(AActor)\nVERIFY_CLASS_SIZE_NODIE(APawn)\n#endif // VERIFY_CLASS_SIZES\n"...)
	if err := os.WriteFile(hdr, text, 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runHeaders(t, root, "--root", root, "--check", "Core", "Engine")
	if code != exitOK || !strings.Contains(out, "(layout ue2-early, check)") {
		t.Errorf("check: code %d\n%s", code, out)
	}
	if _, _, code := runHeaders(t, root, "--root", root, "Core", "Engine"); code != exitOK {
		t.Fatalf("rewrite: code %d", code)
	}
	if again, err := os.ReadFile(hdr); err != nil || !bytes.Equal(again, text) {
		t.Errorf("rewritten in place (%v):\n%s", err, again[bytes.LastIndex(again, []byte("#endif // NATIVES_ONLY")):])
	}
	modderEdit(t, root, "Pawn.uc", "var int Health;\n", "Core", "Engine")
}
