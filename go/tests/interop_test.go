package sabletest

import (
	"bytes"
	"reflect"
	"testing"

	ref "sabletest/ref/example-schema/baseline"
	refmd "sabletest/ref/bench-fix-message-samples/uk_co_real_logic_sbe_benchmarks_fix"

	"sabletest/car"
	"sabletest/marketdata"
)

// refCar is the conformance vector's Car as the reference's generated Go holds it.
func refCar() ref.Car {
	c := ref.Car{
		SerialNumber: 1234, ModelYear: 2013, Available: ref.BooleanType.T, Code: ref.Model.A,
		SomeNumbers: [5]uint32{0, 1, 2, 3, 4}, DiscountedModel: ref.Model.C,
		Engine: ref.Engine{Capacity: 2000, NumCylinders: 4, MaxRpm: 9000, Efficiency: 35,
			BoosterEnabled: ref.BooleanType.T,
			Booster:        ref.EngineBooster{BoostType: ref.BoostType.NITROUS, HorsePower: 200}},
		FuelFigures: []ref.CarFuelFigures{
			{Speed: 30, Mpg: 35.9, UsageDescription: []byte("Urban Cycle")},
			{Speed: 55, Mpg: 49.0, UsageDescription: []byte("Combined Cycle")},
			{Speed: 75, Mpg: 40.0, UsageDescription: []byte("Highway Cycle")},
		},
		PerformanceFigures: []ref.CarPerformanceFigures{
			{OctaneRating: 95, Acceleration: []ref.CarPerformanceFiguresAcceleration{{30, 4.0}, {60, 7.5}, {100, 12.2}}},
			{OctaneRating: 99, Acceleration: []ref.CarPerformanceFiguresAcceleration{{30, 3.8}, {60, 7.1}, {100, 11.8}}},
		},
		Manufacturer: []byte("Honda"), Model: []byte("Civic VTi"), ActivationCode: []byte("abcdef"),
	}
	copy(c.VehicleCode[:], "abcdef")
	copy(c.Engine.ManufacturerCode[:], "123")
	copy(c.Engine.Fuel[:], "Petrol")
	c.Extras[1], c.Extras[2] = true, true
	return c
}

// refEncodeCar writes c, header first, with the reference's codecs.
func refEncodeCar(t testing.TB, m *ref.SbeGoMarshaller, w *bytes.Buffer, c *ref.Car) {
	h := ref.MessageHeader{BlockLength: c.SbeBlockLength(), TemplateId: c.SbeTemplateId(), SchemaId: c.SbeSchemaId(), Version: c.SbeSchemaVersion()}
	if err := h.Encode(m, w); err != nil {
		t.Fatal(err)
	}
	if err := c.Encode(m, w, true); err != nil {
		t.Fatal(err)
	}
}

// refDecodeCar reads a Car, header first, with the reference's codecs.
func refDecodeCar(t testing.TB, m *ref.SbeGoMarshaller, msg []byte) ref.Car {
	r := bytes.NewReader(msg)
	var h ref.MessageHeader
	if err := h.Decode(m, r, 0); err != nil {
		t.Fatal(err)
	}
	var c ref.Car
	if err := c.Decode(m, r, h.Version, h.BlockLength, true); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestInteropCarReferenceToSable(t *testing.T) {
	text, want := carVector(t)
	var w bytes.Buffer
	c := refCar()
	refEncodeCar(t, ref.NewSbeGoMarshaller(), &w, &c)
	if !bytes.Equal(w.Bytes(), want) {
		t.Fatalf("the reference wrote\n%x\nnot the vector\n%x", w.Bytes(), want)
	}
	got, err := car.AppendJSON(nil, w.Bytes())
	if err != nil || string(got) != text {
		t.Fatalf("Sable read %s (%v)\nwant %s", got, err, text)
	}
}

func TestInteropCarSableToReference(t *testing.T) {
	var e car.CarEncoder
	buf := make([]byte, 512)
	if err := encodeCar(&e, buf); err != nil {
		t.Fatal(err)
	}
	got := refDecodeCar(t, ref.NewSbeGoMarshaller(), e.Bytes())
	if want := refCar(); !reflect.DeepEqual(got, want) {
		t.Fatalf("the reference read\n%+v\nwant\n%+v", got, want)
	}
}

// refTrades is the reference benchmark's MarketData message: two trades.
func refTrades() refmd.MarketDataIncrementalRefreshTrades {
	m := refmd.MarketDataIncrementalRefreshTrades{TransactTime: 1234, EventTimeDelta: 5, MatchEventIndicator: refmd.MatchEventIndicator.END_EVENT}
	for i := 0; i < 2; i++ {
		m.MdIncGrp = append(m.MdIncGrp, refmd.MarketDataIncrementalRefreshTradesMdIncGrp{
			TradeId: 1234, SecurityId: 56789, MdEntryPx: refmd.Decimal64{Mantissa: 50, Exponent: 7},
			MdEntrySize: refmd.IntQty32{Mantissa: 10}, NumberOfOrders: 1, MdUpdateAction: refmd.MDUpdateAction.NEW,
			RptSeq: 1, AggressorSide: refmd.Side.BUY, MdEntryType: refmd.MDEntryType.TRADE,
		})
	}
	return m
}

// encodeTrades writes refTrades with Sable's codecs.
func encodeTrades(e *marketdata.MarketDataIncrementalRefreshTradesEncoder, buf []byte) error {
	if err := e.Wrap(buf); err != nil {
		return err
	}
	e.SetTransactTime(1234).SetEventTimeDelta(5).SetMatchEventIndicator(marketdata.MatchEventIndicatorENDEVENT)
	g := e.MdIncGrpCount(2)
	for i := 0; i < 2; i++ {
		g.Next().SetTradeID(1234).SetSecurityID(56789).SetNumberOfOrders(1).
			SetMdUpdateAction(marketdata.MDUpdateActionNEW).SetRptSeq(1).SetAggressorSide(marketdata.SideBUY)
		g.MdEntryPx().SetMantissa(50) // the exponent is a constant, 7
		g.MdEntrySize().SetMantissa(10)
	}
	return e.Err()
}

func refEncodeTrades(t testing.TB, m *refmd.SbeGoMarshaller, w *bytes.Buffer, msg *refmd.MarketDataIncrementalRefreshTrades) {
	h := refmd.MessageHeader{BlockLength: msg.SbeBlockLength(), TemplateId: msg.SbeTemplateId(), SchemaId: msg.SbeSchemaId(), Version: msg.SbeSchemaVersion()}
	if err := h.Encode(m, w); err != nil {
		t.Fatal(err)
	}
	if err := msg.Encode(m, w, true); err != nil {
		t.Fatal(err)
	}
}

func TestInteropMarketDataBothWays(t *testing.T) {
	m := refmd.NewSbeGoMarshaller()
	var w bytes.Buffer
	want := refTrades()
	refEncodeTrades(t, m, &w, &want)
	var e marketdata.MarketDataIncrementalRefreshTradesEncoder
	buf := make([]byte, 256)
	if err := encodeTrades(&e, buf); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(e.Bytes(), w.Bytes()) {
		t.Fatalf("Sable wrote\n%x\nthe reference\n%x", e.Bytes(), w.Bytes())
	}
	// The reference reads Sable's message.
	r := bytes.NewReader(e.Bytes())
	var h refmd.MessageHeader
	if err := h.Decode(m, r, 0); err != nil {
		t.Fatal(err)
	}
	var got refmd.MarketDataIncrementalRefreshTrades
	if err := got.Decode(m, r, h.Version, h.BlockLength, true); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("the reference read %+v (%v)", got, err)
	}
	// Sable reads the reference's.
	var d marketdata.MarketDataIncrementalRefreshTradesDecoder
	if err := d.Wrap(w.Bytes()); err != nil {
		t.Fatal(err)
	}
	if d.TransactTime() != 1234 || d.MatchEventIndicator() != marketdata.MatchEventIndicatorENDEVENT {
		t.Fatal("root fields differ")
	}
	n := 0
	for g := d.MdIncGrp(); g.Next(); n++ {
		if g.TradeID() != 1234 || g.MdEntryPx().Mantissa() != 50 || g.MdEntryPx().Exponent() != 7 || g.AggressorSide() != marketdata.SideBUY || g.MdEntryType() != marketdata.MDEntryTypeTRADE {
			t.Fatalf("entry %d differs", n)
		}
	}
	if n != 2 || d.Err() != nil {
		t.Fatalf("%d entries, %v", n, d.Err())
	}
}
