package cdt

import (
	"github.com/upkdeps/upkdeps/third_party/go-graphviz/internal/wasm"
)

func toLinkWasm(v *Link) *wasm.DictLink {
	if v == nil {
		return nil
	}
	return v.wasm
}

func toDictWasm(v *Dict) *wasm.Dict {
	if v == nil {
		return nil
	}
	return v.wasm
}
