// Benchmarks of Sable's generated Go codecs (scripts/bench-go.sh, docs/benchmarks.md): the
// reference benchmarks' Car and MarketData messages, encoded and decoded (every field read) by
// Sable's codecs, the reference's generated Go, protobuf-go (the same messages, the Java
// benchmarks' .proto files) and a hand-written baseline over the same buffer with
// encoding/binary.
package bench

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"google.golang.org/protobuf/proto"

	"sabletest"
	"sabletest/car"
	"sabletest/marketdata"
	"sabletest/pb"
	refmd "sabletest/ref/bench-fix-message-samples/uk_co_real_logic_sbe_benchmarks_fix"
	ref "sabletest/ref/example-schema/baseline"
)

var sink int

func BenchmarkCarEncode(b *testing.B) {
	buf := make([]byte, 512)
	b.Run("sable", func(b *testing.B) {
		var e car.CarEncoder
		for i := 0; i < b.N; i++ {
			if err := sabletest.EncodeCar(&e, buf); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reference", func(b *testing.B) {
		m := ref.NewSbeGoMarshaller()
		w := bytes.NewBuffer(buf[:0])
		c := sabletest.RefCar()
		for i := 0; i < b.N; i++ {
			w.Reset()
			if err := sabletest.RefEncodeCar(m, w, &c); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("protobuf", func(b *testing.B) {
		c := pbCar()
		opts := proto.MarshalOptions{}
		for i := 0; i < b.N; i++ {
			out, err := opts.MarshalAppend(buf[:0], c)
			if err != nil {
				b.Fatal(err)
			}
			sink += len(out)
		}
	})
	b.Run("binary", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			sink += binaryEncodeCar(buf)
		}
	})
}

func BenchmarkCarDecode(b *testing.B) {
	var e car.CarEncoder
	msg := make([]byte, 512)
	if err := sabletest.EncodeCar(&e, msg); err != nil {
		b.Fatal(err)
	}
	msg = msg[:e.EncodedLength()]
	b.Run("sable", func(b *testing.B) {
		var d car.CarDecoder
		for i := 0; i < b.N; i++ {
			if err := d.Wrap(msg); err != nil {
				b.Fatal(err)
			}
			sink += sabletest.SumCar(&d)
		}
	})
	b.Run("reference", func(b *testing.B) {
		m := ref.NewSbeGoMarshaller()
		r := bytes.NewReader(msg)
		var c ref.Car
		for i := 0; i < b.N; i++ {
			r.Reset(msg)
			if err := sabletest.RefDecodeCar(m, r, &c); err != nil {
				b.Fatal(err)
			}
			sink += refSumCar(&c)
		}
	})
	b.Run("protobuf", func(b *testing.B) {
		data, err := proto.Marshal(pbCar())
		if err != nil {
			b.Fatal(err)
		}
		var c pb.Car
		for i := 0; i < b.N; i++ {
			if err := proto.Unmarshal(data, &c); err != nil {
				b.Fatal(err)
			}
			sink += pbSumCar(&c)
		}
	})
	b.Run("binary", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			sink += binaryDecodeCar(msg)
		}
	})
}

func BenchmarkMarketDataEncode(b *testing.B) {
	buf := make([]byte, 256)
	b.Run("sable", func(b *testing.B) {
		var e marketdata.MarketDataIncrementalRefreshTradesEncoder
		for i := 0; i < b.N; i++ {
			if err := sabletest.EncodeTrades(&e, buf); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reference", func(b *testing.B) {
		m := refmd.NewSbeGoMarshaller()
		w := bytes.NewBuffer(buf[:0])
		t := sabletest.RefTrades()
		for i := 0; i < b.N; i++ {
			w.Reset()
			if err := sabletest.RefEncodeTrades(m, w, &t); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("protobuf", func(b *testing.B) {
		t := pbTrades()
		opts := proto.MarshalOptions{}
		for i := 0; i < b.N; i++ {
			out, err := opts.MarshalAppend(buf[:0], t)
			if err != nil {
				b.Fatal(err)
			}
			sink += len(out)
		}
	})
	b.Run("binary", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			sink += binaryEncodeTrades(buf)
		}
	})
}

func BenchmarkMarketDataDecode(b *testing.B) {
	var e marketdata.MarketDataIncrementalRefreshTradesEncoder
	msg := make([]byte, 256)
	if err := sabletest.EncodeTrades(&e, msg); err != nil {
		b.Fatal(err)
	}
	msg = msg[:e.EncodedLength()]
	b.Run("sable", func(b *testing.B) {
		var d marketdata.MarketDataIncrementalRefreshTradesDecoder
		for i := 0; i < b.N; i++ {
			if err := d.Wrap(msg); err != nil {
				b.Fatal(err)
			}
			n := int(d.TransactTime()) + int(d.EventTimeDelta()) + int(d.MatchEventIndicator())
			for g := d.MdIncGrp(); g.Next(); {
				n += int(g.TradeID()) + int(g.SecurityID()) + int(g.MdEntryPx().Mantissa()) + int(g.MdEntrySize().Mantissa()) +
					int(g.NumberOfOrders()) + int(g.MdUpdateAction()) + int(g.RptSeq()) + int(g.AggressorSide()) + int(g.MdEntryType())
			}
			sink += n
		}
	})
	b.Run("reference", func(b *testing.B) {
		m := refmd.NewSbeGoMarshaller()
		r := bytes.NewReader(msg)
		var t refmd.MarketDataIncrementalRefreshTrades
		for i := 0; i < b.N; i++ {
			r.Reset(msg)
			var h refmd.MessageHeader
			if err := h.Decode(m, r, 0); err != nil {
				b.Fatal(err)
			}
			if err := t.Decode(m, r, h.Version, h.BlockLength, true); err != nil {
				b.Fatal(err)
			}
			n := int(t.TransactTime) + int(t.EventTimeDelta) + int(t.MatchEventIndicator)
			for _, g := range t.MdIncGrp {
				n += int(g.TradeId) + int(g.SecurityId) + int(g.MdEntryPx.Mantissa) + int(g.MdEntrySize.Mantissa) +
					int(g.NumberOfOrders) + int(g.MdUpdateAction) + int(g.RptSeq) + int(g.AggressorSide) + int(g.MdEntryType)
			}
			sink += n
		}
	})
	b.Run("protobuf", func(b *testing.B) {
		data, err := proto.Marshal(pbTrades())
		if err != nil {
			b.Fatal(err)
		}
		var t pb.MarketDataIncrementalRefreshTrades
		for i := 0; i < b.N; i++ {
			if err := proto.Unmarshal(data, &t); err != nil {
				b.Fatal(err)
			}
			n := int(t.TransactTime) + int(t.EventTimeDelta) + int(t.MatchEventIndicator)
			for _, g := range t.MdIncGrp {
				n += int(g.TradeId) + int(g.SecurityId) + int(g.MdEntryPxMantissa) + int(g.MdEntrySizeMantissa) +
					int(g.NumberOfOrders) + int(g.MdUpdateAction) + int(g.RptSeq) + int(g.AggressorSide) + int(g.MdEntryType)
			}
			sink += n
		}
	})
	b.Run("binary", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			sink += binaryDecodeTrades(msg)
		}
	})
}

func refSumCar(c *ref.Car) int {
	n := int(c.SerialNumber) + int(c.ModelYear) + int(c.Available) + int(c.Code)
	for _, v := range c.SomeNumbers {
		n += int(v)
	}
	n += len(c.VehicleCode) + int(c.Engine.Capacity) + int(c.Engine.NumCylinders) + len(c.Engine.ManufacturerCode) + int(c.Engine.Booster.HorsePower)
	if c.Extras[2] {
		n += 4
	}
	for _, f := range c.FuelFigures {
		n += int(f.Speed) + int(f.Mpg) + len(f.UsageDescription)
	}
	for _, p := range c.PerformanceFigures {
		n += int(p.OctaneRating)
		for _, a := range p.Acceleration {
			n += int(a.Mph) + int(a.Seconds)
		}
	}
	return n + len(c.Manufacturer) + len(c.Model) + len(c.ActivationCode)
}

func pbCar() *pb.Car {
	c := &pb.Car{SerialNumber: 1234, ModelYear: 2013, Available: true, Code: pb.Car_A,
		SomeNumbers: []int32{0, 1, 2, 3, 4}, VehicleCode: "abcdef",
		Extras:       []pb.Car_Extras{pb.Car_SPORTS_PACK, pb.Car_CRUISE_CONTROL},
		Engine:       &pb.Car_Engine{Capacity: 2000, NumCylinders: 4, ManufacturerCode: "123"},
		Manufacturer: "Honda", Model: "Civic VTi"}
	for i, s := range []uint32{30, 55, 75} {
		c.FuelFigures = append(c.FuelFigures, &pb.Car_FuelFigures{Speed: s, Mpg: []float32{35.9, 49.0, 40.0}[i]})
	}
	for _, o := range []uint32{95, 99} {
		p := &pb.Car_PerformanceFigures{OctaneRating: o}
		for _, mph := range []uint32{30, 60, 100} {
			p.Acceleration = append(p.Acceleration, &pb.Car_PerformanceFigures_Acceleration{Mph: mph, Seconds: 4.0})
		}
		c.PerformanceFigures = append(c.PerformanceFigures, p)
	}
	return c
}

func pbSumCar(c *pb.Car) int {
	n := int(c.SerialNumber) + int(c.ModelYear) + int(c.Code) + len(c.VehicleCode) + len(c.Extras)
	for _, v := range c.SomeNumbers {
		n += int(v)
	}
	n += int(c.Engine.Capacity) + int(c.Engine.NumCylinders) + len(c.Engine.ManufacturerCode)
	for _, f := range c.FuelFigures {
		n += int(f.Speed) + int(f.Mpg)
	}
	for _, p := range c.PerformanceFigures {
		n += int(p.OctaneRating)
		for _, a := range p.Acceleration {
			n += int(a.Mph) + int(a.Seconds)
		}
	}
	return n + len(c.Manufacturer) + len(c.Model)
}

func pbTrades() *pb.MarketDataIncrementalRefreshTrades {
	t := &pb.MarketDataIncrementalRefreshTrades{TransactTime: 1234, EventTimeDelta: 5, MatchEventIndicator: pb.MatchEventIndicator_END_EVENT}
	for i := 0; i < 2; i++ {
		t.MdIncGrp = append(t.MdIncGrp, &pb.MarketDataIncrementalRefreshTrades_MdIncGrp{TradeId: 1234, SecurityId: 56789,
			MdEntryPxMantissa: 50, MdEntrySizeMantissa: 10, NumberOfOrders: 1, MdUpdateAction: pb.MdUpdateAction_NEW,
			RptSeq: 1, AggressorSide: pb.Side_BUY, MdEntryType: pb.MdEntryType_TRADE})
	}
	return t
}

var le = binary.LittleEndian

// putVar writes a uint32-length var data at p; where it ends.
func putVar(b []byte, p int, s string) int {
	le.PutUint32(b[p:], uint32(len(s)))
	return p + 4 + copy(b[p+4:], s)
}

// binaryEncodeCar writes the Car by hand at its offsets, as the schema lays it out.
func binaryEncodeCar(b []byte) int {
	le.PutUint16(b[0:], 49)
	le.PutUint16(b[2:], 1)
	le.PutUint16(b[4:], 1)
	le.PutUint16(b[6:], 0)
	le.PutUint64(b[8:], 1234)
	le.PutUint16(b[16:], 2013)
	b[18], b[19] = 1, 'A'
	for i := 0; i < 5; i++ {
		le.PutUint32(b[20+4*i:], uint32(i))
	}
	copy(b[40:46], "abcdef")
	b[46] = 6
	le.PutUint16(b[47:], 2000)
	b[49] = 4
	copy(b[50:53], "123")
	b[53], b[54], b[55], b[56] = 35, 1, 'N', 200
	p := 57
	le.PutUint16(b[p:], 6)
	le.PutUint16(b[p+2:], 3)
	p += 4
	for i, s := range [3]string{"Urban Cycle", "Combined Cycle", "Highway Cycle"} {
		le.PutUint16(b[p:], [3]uint16{30, 55, 75}[i])
		le.PutUint32(b[p+2:], math.Float32bits([3]float32{35.9, 49.0, 40.0}[i]))
		p = putVar(b, p+6, s)
	}
	le.PutUint16(b[p:], 1)
	le.PutUint16(b[p+2:], 2)
	p += 4
	for i, o := range [2]byte{95, 99} {
		b[p] = o
		le.PutUint16(b[p+1:], 6)
		le.PutUint16(b[p+3:], 3)
		p += 5
		for j, mph := range [3]uint16{30, 60, 100} {
			le.PutUint16(b[p:], mph)
			le.PutUint32(b[p+2:], math.Float32bits([2][3]float32{{4.0, 7.5, 12.2}, {3.8, 7.1, 11.8}}[i][j]))
			p += 6
		}
	}
	p = putVar(b, p, "Honda")
	p = putVar(b, p, "Civic VTi")
	return putVar(b, p, "abcdef")
}

// binaryDecodeCar reads every field of the Car by hand, as SumCar does with Sable's decoder.
func binaryDecodeCar(b []byte) int {
	n := int(le.Uint64(b[8:])) + int(le.Uint16(b[16:])) + int(b[18]) + int(b[19])
	for i := 0; i < 5; i++ {
		n += int(le.Uint32(b[20+4*i:]))
	}
	n += len(text(b[40:46])) + int(b[46]) + int(le.Uint16(b[47:])) + int(b[49]) + len(text(b[50:53])) + int(b[56])
	p := 57
	bl, count := int(le.Uint16(b[p:])), int(le.Uint16(b[p+2:]))
	p += 4
	for i := 0; i < count; i++ {
		n += int(le.Uint16(b[p:])) + int(math.Float32frombits(le.Uint32(b[p+2:])))
		p += bl
		l := int(le.Uint32(b[p:]))
		n += len(b[p+4 : p+4+l])
		p += 4 + l
	}
	bl, count = int(le.Uint16(b[p:])), int(le.Uint16(b[p+2:]))
	p += 4
	for i := 0; i < count; i++ {
		n += int(b[p])
		p += bl
		abl, acount := int(le.Uint16(b[p:])), int(le.Uint16(b[p+2:]))
		p += 4
		for j := 0; j < acount; j++ {
			n += int(le.Uint16(b[p:])) + int(math.Float32frombits(le.Uint32(b[p+2:])))
			p += abl
		}
	}
	for k := 0; k < 3; k++ {
		l := int(le.Uint32(b[p:]))
		n += len(b[p+4 : p+4+l])
		p += 4 + l
	}
	return n
}

// text is a char array's bytes before its first NUL, as the decoders give it.
func text(b []byte) []byte {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return b[:i]
	}
	return b
}

// binaryEncodeTrades writes the MarketData message by hand.
func binaryEncodeTrades(b []byte) int {
	le.PutUint16(b[0:], 11)
	le.PutUint16(b[2:], 2)
	le.PutUint16(b[4:], 1)
	le.PutUint16(b[6:], 1)
	le.PutUint64(b[8:], 1234)
	le.PutUint16(b[16:], 5)
	b[18] = '2'
	le.PutUint16(b[19:], 33)
	le.PutUint16(b[21:], 2)
	p := 23
	for i := 0; i < 2; i++ {
		le.PutUint64(b[p:], 1234)
		le.PutUint64(b[p+8:], 56789)
		le.PutUint64(b[p+16:], 50)
		le.PutUint32(b[p+24:], 10)
		le.PutUint16(b[p+28:], 1)
		b[p+30], b[p+31], b[p+32] = 0, 1, '1'
		p += 33
	}
	return p
}

// binaryDecodeTrades reads every field of the MarketData message by hand.
func binaryDecodeTrades(b []byte) int {
	n := int(le.Uint64(b[8:])) + int(le.Uint16(b[16:])) + int(b[18])
	bl, count := int(le.Uint16(b[19:])), int(le.Uint16(b[21:]))
	p := 23
	for i := 0; i < count; i++ {
		n += int(le.Uint64(b[p:])) + int(le.Uint64(b[p+8:])) + int(le.Uint64(b[p+16:])) + int(le.Uint32(b[p+24:])) +
			int(le.Uint16(b[p+28:])) + int(b[p+30]) + int(b[p+31]) + int(b[p+32]) + '2'
		p += bl
	}
	return n
}

// The baseline writes what Sable writes.
func TestBaselineWritesTheSameBytes(t *testing.T) {
	var e car.CarEncoder
	want := make([]byte, 512)
	if err := sabletest.EncodeCar(&e, want); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 512)
	if n := binaryEncodeCar(got); !bytes.Equal(got[:n], e.Bytes()) {
		t.Fatalf("Car baseline\n%x\nSable\n%x", got[:n], e.Bytes())
	}
	var m marketdata.MarketDataIncrementalRefreshTradesEncoder
	if err := sabletest.EncodeTrades(&m, want); err != nil {
		t.Fatal(err)
	}
	if n := binaryEncodeTrades(got); !bytes.Equal(got[:n], m.Bytes()) {
		t.Fatalf("MarketData baseline\n%x\nSable\n%x", got[:n], m.Bytes())
	}
}
