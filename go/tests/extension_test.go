package sabletest

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	refext "sabletest/ref/example-extension-schema/extension"

	"sabletest/extension"
)

// refExtCar is a Car of the extension schema (version 2: uuid and cupHolderCount since 1, the
// fuel figures' mpg since 2), written by the reference's Go.
func refExtCar(t *testing.T) []byte {
	c := refext.Car{SerialNumber: 7, ModelYear: 2020, Available: refext.BooleanType.T, Code: refext.Model.B,
		SomeNumbers: [4]uint32{1, 2, 3, 4}, DiscountedModel: refext.Model.C,
		Engine: refext.Engine{Capacity: 1600, NumCylinders: 4, MaxRpm: 9000, Efficiency: 40,
			BoosterEnabled: refext.BooleanType.F, Booster: refext.EngineBooster{BoostType: refext.BoostType.TURBO, HorsePower: 90}},
		Uuid: [2]int64{11, -12}, CupHolderCount: 3,
		FuelFigures:  []refext.CarFuelFigures{{Speed: 50, Mpg: 44.5, UsageDescription: []byte("Mixed")}},
		Manufacturer: []byte("Acme"), Model: []byte("X"), ActivationCode: []byte("z"),
	}
	copy(c.VehicleCode[:], "vwxyz0")
	copy(c.Engine.ManufacturerCode[:], "777")
	copy(c.Engine.Fuel[:], "Petrol")
	m := refext.NewSbeGoMarshaller()
	var w bytes.Buffer
	h := refext.MessageHeader{BlockLength: c.SbeBlockLength(), TemplateId: c.SbeTemplateId(), SchemaId: c.SbeSchemaId(), Version: c.SbeSchemaVersion()}
	if err := h.Encode(m, &w); err != nil {
		t.Fatal(err)
	}
	if err := c.Encode(m, &w, true); err != nil {
		t.Fatal(err)
	}
	return w.Bytes()
}

func sameFloat(a, b float32) bool {
	return a == b || (a != a && b != b)
}

// Across versions: the reference's message read by Sable's decoder and by the reference's,
// field for field the same; then with its header's version set to 1 and 0, as an older version
// would read it: the fields since a later version absent (uuid and cupHolderCount since 1, mpg
// since 2), the rest the same values. (The reference's Go is not compared there: at an acting
// version below its schema's it does not skip the rest of a longer entry block, and misreads the
// var data after it.)
func TestInteropExtensionAcrossVersions(t *testing.T) {
	msg := refExtCar(t)
	var want refext.Car
	for _, version := range []uint16{2, 1, 0} {
		b := append([]byte(nil), msg...)
		binary.LittleEndian.PutUint16(b[6:], version)
		if version < 2 {
			want.FuelFigures[0].Mpg = float32(math.NaN())
		}
		if version < 1 {
			want.CupHolderCount = want.CupHolderCountNullValue()
			want.Uuid = [2]int64{math.MinInt64, math.MinInt64}
		}
		if version == 2 {
			r := bytes.NewReader(b)
			m := refext.NewSbeGoMarshaller()
			var h refext.MessageHeader
			if err := h.Decode(m, r, 0); err != nil {
				t.Fatal(err)
			}
			if err := want.Decode(m, r, h.Version, h.BlockLength, false); err != nil {
				t.Fatalf("version %d: the reference: %v", version, err)
			}
		}
		var d extension.CarDecoder
		if err := d.Wrap(b); err != nil {
			t.Fatalf("version %d: %v", version, err)
		}
		cup, ok := d.CupHolderCount()
		if ok != (version >= 1) || cup != want.CupHolderCount || d.UUID(0) != want.Uuid[0] || d.UUID(1) != want.Uuid[1] {
			t.Errorf("version %d: uuid %d %d, cupHolderCount %d %v; the reference %v %d", version, d.UUID(0), d.UUID(1), cup, ok, want.Uuid, want.CupHolderCount)
		}
		if d.SerialNumber() != want.SerialNumber || d.Engine().Capacity() != want.Engine.Capacity || string(d.VehicleCode()) != string(want.VehicleCode[:]) {
			t.Errorf("version %d: root fields differ", version)
		}
		g := d.FuelFigures()
		if !g.Next() || g.Speed() != want.FuelFigures[0].Speed || !sameFloat(g.Mpg(), want.FuelFigures[0].Mpg) || g.UsageDescriptionString() != string(want.FuelFigures[0].UsageDescription) {
			t.Errorf("version %d: fuelFigures[0] speed %d mpg %v %q; the reference %+v", version, g.Speed(), g.Mpg(), g.UsageDescriptionString(), want.FuelFigures[0])
		}
		if version < 2 && !math.IsNaN(float64(g.Mpg())) {
			t.Errorf("version %d: mpg %v, not absent", version, g.Mpg())
		}
		if d.ManufacturerString() != string(want.Manufacturer) || d.ActivationCodeString() != string(want.ActivationCode) || d.Err() != nil {
			t.Errorf("version %d: var data %q %q, %v", version, d.ManufacturerString(), d.ActivationCodeString(), d.Err())
		}
	}
}

// The other way: Sable's extension encoder writes what the reference reads.
func TestInteropExtensionSableToReference(t *testing.T) {
	var e extension.CarEncoder
	buf := make([]byte, 256)
	if err := e.Wrap(buf); err != nil {
		t.Fatal(err)
	}
	e.SetSerialNumber(7).SetModelYear(2020).SetAvailable(extension.BooleanTypeT).SetCode(extension.ModelB).
		SetVehicleCodeString("vwxyz0").SetUUID(0, 11).SetUUID(1, -12).SetCupHolderCount(3)
	for i := 0; i < 4; i++ {
		e.SetSomeNumbers(i, uint32(i+1))
	}
	e.Engine().SetCapacity(1600).SetNumCylinders(4).SetManufacturerCodeString("777").SetEfficiency(40).
		SetBoosterEnabled(extension.BooleanTypeF).Booster().SetBoostType(extension.BoostTypeTURBO).SetHorsePower(90)
	e.FuelFiguresCount(1).Next().SetSpeed(50).SetMpg(44.5).SetUsageDescriptionString("Mixed")
	e.PerformanceFiguresCount(0)
	e.SetManufacturerString("Acme").SetModelString("X").SetActivationCodeString("z")
	if err := e.Err(); err != nil {
		t.Fatal(err)
	}
	if want := refExtCar(t); !bytes.Equal(e.Bytes(), want) {
		t.Fatalf("Sable wrote\n%x\nthe reference\n%x", e.Bytes(), want)
	}
}

// olderCar rewrites the extension's Car as a version 0 writer with shorter blocks would have:
// the root block cut to rootLen bytes and each fuelFigures entry's block to the speed's 2.
func olderCar(t *testing.T, msg []byte, rootLen int) []byte {
	t.Helper()
	var d extension.CarDecoder
	if err := d.Wrap(msg); err != nil {
		t.Fatal(err)
	}
	const hdr, fuelLen = extension.HeaderSize, 2
	out := append([]byte(nil), msg[:hdr]...)
	binary.LittleEndian.PutUint16(out[0:], uint16(rootLen))
	binary.LittleEndian.PutUint16(out[6:], 0)
	out = append(out, msg[hdr:hdr+rootLen]...)
	p := hdr + extension.CarBlockLength
	out = append(out, fuelLen, 0, msg[p+2], msg[p+3])
	p += 4
	for g := d.FuelFigures(); g.Next(); {
		n := 2 + len(g.UsageDescription())
		out = append(out, msg[p:p+fuelLen]...)
		out = append(out, msg[p+6:p+6+n]...)
		p += 6 + n
	}
	return append(out, msg[p:]...)
}

// An older writer's shorter blocks: the fields they hold whole read as written, the others as
// null, the groups and var data after them the same; reading such blocks again allocates
// nothing (the decoder keeps the scratch blocks it copied them into).
func TestReadsAnOlderWritersShorterBlocks(t *testing.T) {
	msg := refExtCar(t)
	short := olderCar(t, msg, 20) // someNumbers (12..28) cut: it and all after it null
	var full, d extension.CarDecoder
	if err := full.Wrap(msg); err != nil {
		t.Fatal(err)
	}
	if err := d.Wrap(short); err != nil {
		t.Fatal(err)
	}
	if d.ActingBlockLength() != 20 || d.SerialNumber() != full.SerialNumber() || d.Code() != full.Code() {
		t.Errorf("the fields held: %d %d %v", d.ActingBlockLength(), d.SerialNumber(), d.Code())
	}
	if d.SomeNumbers(0) != 4294967295 || d.Extras() != 0 || d.Engine().Capacity() != 65535 || len(d.VehicleCode()) != 0 {
		t.Errorf("the fields cut: %d %v %d %q", d.SomeNumbers(0), d.Extras(), d.Engine().Capacity(), d.VehicleCode())
	}
	g, fg := d.FuelFigures(), full.FuelFigures()
	for g.Next() && fg.Next() {
		if g.Speed() != fg.Speed() || !math.IsNaN(float64(g.Mpg())) || g.UsageDescriptionString() != fg.UsageDescriptionString() {
			t.Errorf("fuelFigures[%d]: %d %v %q", g.Index(), g.Speed(), g.Mpg(), g.UsageDescription())
		}
	}
	if g.Err() != nil || g.Index() != fg.Index() || d.ManufacturerString() != full.ManufacturerString() || d.ActivationCodeString() != full.ActivationCodeString() {
		t.Errorf("after the groups: %v %d %q %q", g.Err(), g.Index(), d.Manufacturer(), d.ActivationCode())
	}
	js, err := d.AppendJSON(nil)
	if err != nil || !bytes.Contains(js, []byte(`"someNumbers":null`)) || !bytes.Contains(js, []byte(`"mpg":null`)) {
		t.Errorf("JSON: %v %s", err, js)
	}
	if n := testing.AllocsPerRun(100, func() {
		if err := d.Wrap(short); err != nil || d.SerialNumber() != full.SerialNumber() {
			t.Fatal(err)
		}
		for g := d.FuelFigures(); g.Next(); {
			_ = g.Speed()
		}
	}); n != 0 {
		t.Errorf("reading shorter blocks again: %v allocations", n)
	}
}
