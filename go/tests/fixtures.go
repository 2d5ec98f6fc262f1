// Package sabletest holds what the tests and benchmarks of Sable's generated Go codecs share
// (scripts/go-tests.sh, scripts/bench-go.sh): the Car and MarketData messages of the
// reference's benchmarks, written and read with Sable's codecs and with the reference's.
package sabletest

import (
	"io"

	refmd "sabletest/ref/bench-fix-message-samples/uk_co_real_logic_sbe_benchmarks_fix"
	ref "sabletest/ref/example-schema/baseline"

	"sabletest/car"
	"sabletest/marketdata"
)

// EncodeCar writes the conformance vector's Car with the generated encoder.
func EncodeCar(e *car.CarEncoder, buf []byte) error {
	if err := e.Wrap(buf); err != nil {
		return err
	}
	e.SetSerialNumber(1234).SetModelYear(2013).SetAvailable(car.BooleanTypeT).SetCode(car.ModelA)
	for i := 0; i < 5; i++ {
		e.SetSomeNumbers(i, uint32(i))
	}
	e.SetVehicleCodeString("abcdef").SetExtras(car.OptionalExtrasSportsPack | car.OptionalExtrasCruiseControl)
	e.Engine().SetCapacity(2000).SetNumCylinders(4).SetManufacturerCodeString("123").
		SetEfficiency(35).SetBoosterEnabled(car.BooleanTypeT).
		Booster().SetBoostType(car.BoostTypeNITROUS).SetHorsePower(200)
	fuel := e.FuelFiguresCount(3)
	fuel.Next().SetSpeed(30).SetMpg(35.9).SetUsageDescriptionString("Urban Cycle")
	fuel.Next().SetSpeed(55).SetMpg(49.0).SetUsageDescriptionString("Combined Cycle")
	fuel.Next().SetSpeed(75).SetMpg(40.0).SetUsageDescriptionString("Highway Cycle")
	perf := e.PerformanceFiguresCount(2)
	for _, p := range []struct {
		octane  uint8
		seconds [3]float32
	}{{95, [3]float32{4.0, 7.5, 12.2}}, {99, [3]float32{3.8, 7.1, 11.8}}} {
		acc := perf.Next().SetOctaneRating(p.octane).AccelerationCount(3)
		for i, mph := range [3]uint16{30, 60, 100} {
			acc.Next().SetMph(mph).SetSeconds(p.seconds[i])
		}
	}
	e.SetManufacturerString("Honda").SetModelString("Civic VTi").SetActivationCodeString("abcdef")
	return e.Err()
}

// SumCar reads every field of a Car, its groups and var data, into a number.
func SumCar(d *car.CarDecoder) int {
	n := int(d.SerialNumber()) + int(d.ModelYear()) + int(d.Available()) + int(d.Code())
	for i := 0; i < d.SomeNumbersLength(); i++ {
		n += int(d.SomeNumbers(i))
	}
	n += len(d.VehicleCode()) + int(d.Extras())
	eng := d.Engine()
	n += int(eng.Capacity()) + int(eng.NumCylinders()) + len(eng.ManufacturerCode()) + int(eng.Booster().HorsePower())
	for g := d.FuelFigures(); g.Next(); {
		n += int(g.Speed()) + int(g.Mpg()) + len(g.UsageDescription())
	}
	for g := d.PerformanceFigures(); g.Next(); {
		n += int(g.OctaneRating())
		for a := g.Acceleration(); a.Next(); {
			n += int(a.Mph()) + int(a.Seconds())
		}
	}
	n += len(d.Manufacturer()) + len(d.Model()) + len(d.ActivationCode())
	return n
}

// RefCar is the conformance vector's Car as the reference's generated Go holds it.
func RefCar() ref.Car {
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
			{OctaneRating: 95, Acceleration: accelerations(4.0, 7.5, 12.2)},
			{OctaneRating: 99, Acceleration: accelerations(3.8, 7.1, 11.8)},
		},
		Manufacturer: []byte("Honda"), Model: []byte("Civic VTi"), ActivationCode: []byte("abcdef"),
	}
	copy(c.VehicleCode[:], "abcdef")
	copy(c.Engine.ManufacturerCode[:], "123")
	copy(c.Engine.Fuel[:], "Petrol")
	c.Extras[1], c.Extras[2] = true, true
	return c
}

// accelerations are the reference's entries at 30, 60 and 100 mph.
func accelerations(seconds ...float32) []ref.CarPerformanceFiguresAcceleration {
	out := make([]ref.CarPerformanceFiguresAcceleration, len(seconds))
	for i, s := range seconds {
		out[i] = ref.CarPerformanceFiguresAcceleration{Mph: [3]uint16{30, 60, 100}[i], Seconds: s}
	}
	return out
}

// RefEncodeCar writes c, header first, with the reference's codecs.
func RefEncodeCar(m *ref.SbeGoMarshaller, w io.Writer, c *ref.Car) error {
	h := ref.MessageHeader{BlockLength: c.SbeBlockLength(), TemplateId: c.SbeTemplateId(), SchemaId: c.SbeSchemaId(), Version: c.SbeSchemaVersion()}
	if err := h.Encode(m, w); err != nil {
		return err
	}
	return c.Encode(m, w, true)
}

// RefDecodeCar reads a Car, header first, with the reference's codecs.
func RefDecodeCar(m *ref.SbeGoMarshaller, r io.Reader, c *ref.Car) error {
	var h ref.MessageHeader
	if err := h.Decode(m, r, 0); err != nil {
		return err
	}
	return c.Decode(m, r, h.Version, h.BlockLength, true)
}

// RefTrades is the reference benchmark's MarketData message: two trades.
func RefTrades() refmd.MarketDataIncrementalRefreshTrades {
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

// EncodeTrades writes RefTrades with Sable's codecs.
func EncodeTrades(e *marketdata.MarketDataIncrementalRefreshTradesEncoder, buf []byte) error {
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

// RefEncodeTrades writes msg, header first, with the reference's codecs.
func RefEncodeTrades(m *refmd.SbeGoMarshaller, w io.Writer, msg *refmd.MarketDataIncrementalRefreshTrades) error {
	h := refmd.MessageHeader{BlockLength: msg.SbeBlockLength(), TemplateId: msg.SbeTemplateId(), SchemaId: msg.SbeSchemaId(), Version: msg.SbeSchemaVersion()}
	if err := h.Encode(m, w); err != nil {
		return err
	}
	return msg.Encode(m, w, true)
}
