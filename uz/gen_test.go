package uz

import (
	"encoding/binary"
	"math/rand/v2"
)

// genPackage returns size bytes that look like an Unreal package: a name
// table of identifiers, runs of zeros, little-endian integers, repeated
// records with small variations, and a few stretches of noise (textures,
// sounds).
func genPackage(seed uint64, size int) []byte {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	words := []string{"Core", "Engine", "Object", "Actor", "Pawn", "PlayerPawn", "Texture", "Sound",
		"Mesh", "Function", "Class", "Property", "IntProperty", "ByteProperty", "StrProperty", "None",
		"bHidden", "DrawType", "Location", "Rotation", "Tick", "PostBeginPlay", "BotPack", "UnrealShare"}
	b := make([]byte, 0, size+256)
	for len(b) < size {
		switch rng.IntN(10) {
		case 0, 1, 2: // name table entry: length, text, NUL, flags
			w := words[rng.IntN(len(words))]
			if rng.IntN(3) == 0 {
				w += words[rng.IntN(len(words))]
			}
			b = append(b, byte(len(w)+1))
			b = append(b, w...)
			b = append(b, 0)
			b = binary.LittleEndian.AppendUint32(b, 0x04070010)
		case 3: // zero run
			b = append(b, make([]byte, rng.IntN(600))...)
		case 4, 5: // integers
			for range rng.IntN(32) {
				b = binary.LittleEndian.AppendUint32(b, uint32(rng.IntN(4096)))
			}
		case 6, 7: // repeated record
			rec := make([]byte, 8+rng.IntN(24))
			for i := range rec {
				rec[i] = byte(rng.IntN(64))
			}
			for range rng.IntN(20) {
				rec[rng.IntN(len(rec))]++
				b = append(b, rec...)
			}
		case 8: // noise
			for range rng.IntN(2048) {
				b = append(b, byte(rng.Uint32()))
			}
		case 9: // run of one byte value
			v := byte(rng.Uint32())
			for range rng.IntN(1000) {
				b = append(b, v)
			}
		}
	}
	return b[:size]
}

// genRandom returns size uniformly random bytes.
func genRandom(seed uint64, size int) []byte {
	rng := rand.New(rand.NewPCG(seed, 1))
	b := make([]byte, size)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}
