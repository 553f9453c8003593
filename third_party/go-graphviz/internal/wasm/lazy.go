package wasm

// This file is an upkdeps patch (third_party/go-graphviz.patch): upstream
// compiles and instantiates the module in an init function, so every program
// linking go-graphviz paid for it at start, drawing or not, and kept its
// compilation cache in os.TempDir()/go-graphviz, a folder other local users
// can write to. Here the module is loaded by the first Load (graphviz.New,
// cgraph.ParseBytes, cgraph.Open call it), the compilation cache is only the
// folder given to SetCompilationCacheDir (in memory otherwise), a module
// that closed (Graphviz calling exit) is instantiated again by the next
// Load, and the module's memory is limited.

import (
	"context"
	"fmt"
	"sync"

	"github.com/tetratelabs/wazero"
)

var (
	loadMu      sync.Mutex
	onLoad      []func(context.Context) error
	loads       int
	cacheDir    string
	cache       wazero.CompilationCache
	wasmRuntime wazero.Runtime
	memoryPages uint32 = 16384 // 1 GiB of 64 KiB pages
)

// OnLoad adds f to the functions run, in the order added, after each
// instantiation of the module; packages of the module call it from init to
// set their globals.
func OnLoad(f func(context.Context) error) {
	loadMu.Lock()
	defer loadMu.Unlock()
	onLoad = append(onLoad, f)
}

// SetCompilationCacheDir makes the module's compiled code be kept in dir,
// which the caller has made private to the user (the code found there is
// run); "" keeps it in memory only. It has effect before the first Load.
func SetCompilationCacheDir(dir string) {
	loadMu.Lock()
	defer loadMu.Unlock()
	cacheDir = dir
}

// SetMemoryLimitPages limits the module's memory to n pages of 64 KiB
// (default 16384, 1 GiB). It has effect before the first Load.
func SetMemoryLimitPages(n uint32) {
	loadMu.Lock()
	defer loadMu.Unlock()
	memoryPages = n
}

// Loads returns how many times the module was instantiated.
func Loads() int {
	loadMu.Lock()
	defer loadMu.Unlock()
	return loads
}

// Load instantiates the module unless it is instantiated and open, then
// runs the OnLoad functions.
func Load(ctx context.Context) (err error) {
	loadMu.Lock()
	defer loadMu.Unlock()
	if mod != nil && !mod.mod.IsClosed() {
		return nil
	}
	if wasmRuntime != nil {
		_ = wasmRuntime.Close(ctx)
		wasmRuntime, mod = nil, nil
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("graphviz: load the WebAssembly module: %v", r)
		}
		if err != nil && wasmRuntime != nil {
			_ = wasmRuntime.Close(ctx)
			wasmRuntime, mod = nil, nil
		}
	}()
	instantiate(ctx)
	fsMu.Lock()
	mod.fs.subFS = userFS
	fsMu.Unlock()
	for _, f := range onLoad {
		if err := f(ctx); err != nil {
			return err
		}
	}
	loads++
	return nil
}

// runtimeConfig is the configuration of the runtime instantiate makes.
func runtimeConfig() wazero.RuntimeConfig {
	if cache == nil {
		if cacheDir != "" {
			cache, _ = wazero.NewCompilationCacheWithDir(cacheDir)
		}
		if cache == nil {
			cache = wazero.NewCompilationCache()
		}
	}
	return wazero.NewRuntimeConfig().
		WithCompilationCache(cache).
		WithMemoryLimitPages(memoryPages)
}

// checkEnum panics unless the module's value of the C enum constant cname
// is have, the value of the Go variable name (upkdeps patch: the variables
// hold the module's values from the start, as other packages copy them at
// init, before Load; upstream set them in its init function).
func checkEnum(ctx context.Context, name string, have int, cname string) {
	if want := mod.getEnumValue(ctx, cname); have != want {
		panic(fmt.Sprintf("enum %s is %d in the module, %d in the Go code", name, want, have))
	}
}
