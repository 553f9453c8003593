package format

import (
	"bytes"
	"os"
	"testing"
)

func BenchmarkZZViewMem(b *testing.B) {
	var imgs [][]byte
	var paths []string
	for _, p := range corpusPackages(b) {
		img, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		imgs, paths = append(imgs, img), append(paths, p)
	}
	var rd Reader
	var br bytes.Reader
	b.ResetTimer()
	for b.Loop() {
		for i, img := range imgs {
			br.Reset(img)
			if _, err := rd.ViewAt(&br, int64(len(img)), paths[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
}
