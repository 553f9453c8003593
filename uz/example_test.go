package uz_test

import (
	"bytes"
	"fmt"
	"io"
	"log"
	"strings"

	"github.com/upkdeps/upkdeps/uz"
)

func Example() {
	original := strings.Repeat("Unreal package bytes. ", 100)

	// Compress as ucc compress would (signature 1234).
	var file bytes.Buffer
	w, err := uz.NewWriter(&file, "MyMod.u", uz.Sig1234)
	if err != nil {
		log.Fatal(err)
	}
	io.WriteString(w, original)
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	fmt.Println(uz.Detect(file.Bytes()))

	// Decompress with a cap on the output size.
	r, err := uz.NewReader(&file, 1<<20)
	if err != nil {
		log.Fatal(err)
	}
	var out strings.Builder
	if _, err := io.Copy(&out, r); err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Header.Name, out.String() == original)
	// Output:
	// uz
	// MyMod.u true
}

func ExampleNewWriter2() {
	var file bytes.Buffer
	w := uz.NewWriter2(&file, 2)
	io.WriteString(w, strings.Repeat("UE2 package bytes. ", 5000))
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	out, err := io.ReadAll(uz.NewReader2(&file, 0))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(out))
	// Output: 95000
}
