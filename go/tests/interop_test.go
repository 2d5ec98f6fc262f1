package sabletest

import (
	"bytes"
	"reflect"
	"testing"

	refmd "sabletest/ref/bench-fix-message-samples/uk_co_real_logic_sbe_benchmarks_fix"
	ref "sabletest/ref/example-schema/baseline"

	"sabletest/car"
	"sabletest/marketdata"
)

func TestInteropCarReferenceToSable(t *testing.T) {
	text, want := carVector(t)
	var w bytes.Buffer
	c := RefCar()
	if err := RefEncodeCar(ref.NewSbeGoMarshaller(), &w, &c); err != nil {
		t.Fatal(err)
	}
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
	if err := EncodeCar(&e, buf); err != nil {
		t.Fatal(err)
	}
	var got ref.Car
	if err := RefDecodeCar(ref.NewSbeGoMarshaller(), bytes.NewReader(e.Bytes()), &got); err != nil {
		t.Fatal(err)
	}
	if want := RefCar(); !reflect.DeepEqual(got, want) {
		t.Fatalf("the reference read\n%+v\nwant\n%+v", got, want)
	}
}

func TestInteropMarketDataBothWays(t *testing.T) {
	m := refmd.NewSbeGoMarshaller()
	var w bytes.Buffer
	want := RefTrades()
	if err := RefEncodeTrades(m, &w, &want); err != nil {
		t.Fatal(err)
	}
	var e marketdata.MarketDataIncrementalRefreshTradesEncoder
	buf := make([]byte, 256)
	if err := EncodeTrades(&e, buf); err != nil {
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
