package sabletest

import (
	"encoding/hex"
	"testing"

	"sabletest/car"
	"sabletest/structure"
)

// seed adds the conformance vectors' messages of the files to the fuzz corpus.
func seed(f *testing.F, files ...string) {
	for _, file := range files {
		for _, v := range vectors(f, file) {
			if b, err := hex.DecodeString(v.Hex); err == nil {
				f.Add(b)
			}
		}
	}
}

// FuzzCar: the Car's decoders on any bytes never panic, and a message that decodes says it
// takes no more bytes than it was given.
func FuzzCar(f *testing.F) {
	seed(f, "conformance/vectors/car.jsonl", "conformance/malformed/car.jsonl")
	f.Fuzz(func(t *testing.T, msg []byte) {
		if _, err := car.AppendJSON(nil, msg); err != nil {
			return
		}
		var d car.CarDecoder
		if d.Wrap(msg) == nil {
			SumCar(&d)
			if n, err := d.EncodedLength(); err == nil && n > len(msg) {
				t.Fatalf("EncodedLength %d of %d bytes", n, len(msg))
			}
		}
	})
}

// FuzzStructure: nested groups with var data in entries, on any bytes.
func FuzzStructure(f *testing.F) {
	seed(f, "conformance/vectors/structure.jsonl", "conformance/malformed/structure.jsonl")
	f.Fuzz(func(t *testing.T, msg []byte) {
		_, _ = structure.AppendJSON(nil, msg)
	})
}
