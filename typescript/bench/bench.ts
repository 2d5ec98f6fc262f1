// The TypeScript codecs' benchmark (docs/benchmarks.md, "TypeScript codecs"): MarketData and Car
// encode and decode (every field read), in one Node process, with Sable's generated codecs, a
// hand-written DataView baseline over the same buffer (MarketData; checked to write the same
// bytes) and protobufjs (the same messages, built by reflection). scripts/bench-typescript.sh
// generates the codecs under gen/ and compiles this file beside them.
import protobuf from "protobufjs";

import * as car from "./gen/bench-car.js";
import * as fix from "./gen/bench-fix.js";

const SIDES = [fix.Side.Buy, fix.Side.Sell];
const FUEL: [number, number][] = [[30, 35.9], [55, 49.0], [75, 40.0]];
const PERF: [number, [number, number][]][] = [
  [95, [[30, 4.0], [60, 7.5], [100, 12.2]]],
  [99, [[30, 3.8], [60, 7.1], [100, 11.8]]],
];

// --- Sable ---
const mdEnc = new fix.MarketDataIncrementalRefreshTradesEncoder();
const mdDec = new fix.MarketDataIncrementalRefreshTradesDecoder();
function mdSableEncode(buf: Uint8Array): number {
  const e = mdEnc.wrap(buf);
  e.transactTime(1234).eventTimeDelta(987).matchEventIndicator(fix.MatchEventIndicator.EndEvent);
  const g = e.mdIncGrp();
  for (const side of SIDES) {
    g.next().tradeId(1234).securityId(56789);
    g.mdEntryPx().mantissa(50);
    g.mdEntrySize().mantissa(10);
    g.numberOfOrders(1).mdUpdateAction(fix.MdUpdateAction.New).rptSeq(1).aggressorSide(side);
  }
  return e.encodedLength();
}
function mdSableDecode(buf: Uint8Array): number {
  const d = mdDec.wrap(buf);
  let sum = d.transactTimeAsNumber + d.eventTimeDelta + d.matchEventIndicator;
  for (const g of d.mdIncGrp) {
    sum += g.tradeIdAsNumber + g.securityIdAsNumber + g.mdEntryPx.mantissaAsNumber + g.mdEntrySize.mantissa;
    sum += g.numberOfOrders + g.mdUpdateAction + g.rptSeq + g.aggressorSide + g.mdEntryType;
  }
  return sum;
}
const carEnc = new car.CarEncoder();
const carDec = new car.CarDecoder();
function carSableEncode(buf: Uint8Array): number {
  const e = carEnc.wrap(buf);
  e.code(car.Model.A).modelYear(2005).serialNumber(12345).available(car.BooleanType.T);
  e.vehicleCode("abcdef").someNumbers([0, 1, 2, 3, 4]);
  e.extras(car.OptionalExtras.SPORTS_PACK | car.OptionalExtras.SUN_ROOF);
  e.engine().capacity(4200).numCylinders(8).manufacturerCode("abc");
  const fuel = e.fuelFigures();
  for (const [speed, mpg] of FUEL) fuel.next().speed(speed).mpg(mpg);
  const perf = e.performanceFigures();
  for (const [octane, accel] of PERF) {
    const a = perf.next().octaneRating(octane).acceleration();
    for (const [mph, seconds] of accel) a.next().mph(mph).seconds(seconds);
  }
  e.manufacturer("MANUFACTURER").model("MODEL");
  return e.encodedLength();
}
function carSableDecode(buf: Uint8Array): number {
  const d = carDec.wrap(buf);
  let sum = d.serialNumber + d.modelYear + d.available + d.code;
  for (let i = 0; i < 5; i++) sum += d.someNumbersAt(i);
  sum += d.vehicleCode.length;
  const x = d.extras;
  sum += Number(x.cruiseControl) + Number(x.sportsPack) + Number(x.sunRoof);
  const e = d.engine;
  sum += e.capacity + e.numCylinders + e.maxRpm + e.manufacturerCode.length + e.fuel.length;
  for (const f of d.fuelFigures) sum += f.speed + f.mpg;
  for (const p of d.performanceFigures) {
    sum += p.octaneRating;
    for (const a of p.acceleration) sum += a.mph + a.seconds;
  }
  sum += d.manufacturer.length + d.model.length;
  return sum;
}

// --- hand-written DataView (MarketData) ---
function mdViewEncode(buf: Uint8Array): number {
  const v = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  v.setUint16(0, 11, true);
  v.setUint16(2, 2, true);
  v.setUint16(4, 1, true);
  v.setUint16(6, 1, true);
  v.setUint32(8, 1234, true);
  v.setUint32(12, 0, true);
  v.setUint16(16, 987, true);
  v.setUint8(18, 50);
  v.setUint16(19, 33, true);
  v.setUint16(21, 2, true);
  let p = 23;
  for (const side of SIDES) {
    v.setUint32(p, 1234, true);
    v.setUint32(p + 4, 0, true);
    v.setUint32(p + 8, 56789, true);
    v.setUint32(p + 12, 0, true);
    v.setUint32(p + 16, 50, true);
    v.setInt32(p + 20, 0, true);
    v.setInt32(p + 24, 10, true);
    v.setUint16(p + 28, 1, true);
    v.setUint8(p + 30, 0);
    v.setUint8(p + 31, 1);
    v.setUint8(p + 32, side);
    p += 33;
  }
  return p;
}
function mdViewDecode(buf: Uint8Array): number {
  const v = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (v.getUint16(4, true) !== 1 || v.getUint16(2, true) !== 2) throw new Error("not MarketData");
  const block = v.getUint16(0, true);
  let sum = v.getUint32(12, true) * 4294967296 + v.getUint32(8, true) + v.getUint16(16, true) + v.getUint8(18);
  let p = 8 + block;
  const entry = v.getUint16(p, true);
  const count = v.getUint16(p + 2, true);
  p += 4;
  if (p + count * entry > buf.length) throw new Error("truncated");
  for (let i = 0; i < count; i++) {
    sum += v.getUint32(p + 4, true) * 4294967296 + v.getUint32(p, true);
    sum += v.getUint32(p + 12, true) * 4294967296 + v.getUint32(p + 8, true);
    sum += v.getInt32(p + 20, true) * 4294967296 + v.getUint32(p + 16, true) + v.getInt32(p + 24, true);
    sum += v.getUint16(p + 28, true) + v.getUint8(p + 30) + v.getUint8(p + 31) + v.getUint8(p + 32) + 50;
    p += entry;
  }
  return sum;
}

// --- protobufjs (the messages of the Java benchmarks' .proto files) ---
const root = protobuf.Root.fromJSON({
  nested: {
    Engine: { fields: { capacity: { type: "int32", id: 1 }, numCylinders: { type: "int32", id: 2 }, maxRpm: { type: "int32", id: 3 }, manufacturerCode: { type: "string", id: 4 }, fuel: { type: "string", id: 5 } } },
    FuelFigures: { fields: { speed: { type: "int32", id: 1 }, mpg: { type: "float", id: 2 } } },
    Acceleration: { fields: { mph: { type: "int32", id: 1 }, seconds: { type: "float", id: 2 } } },
    PerformanceFigures: { fields: { octaneRating: { type: "int32", id: 1 }, acceleration: { rule: "repeated", type: "Acceleration", id: 2 } } },
    Car: {
      fields: {
        serialNumber: { type: "int64", id: 1 }, modelYear: { type: "int32", id: 2 }, available: { type: "bool", id: 3 },
        code: { type: "int32", id: 4 }, someNumbers: { rule: "repeated", type: "int32", id: 5 }, vehicleCode: { type: "string", id: 6 },
        cruiseControl: { type: "bool", id: 7 }, sportsPack: { type: "bool", id: 8 }, sunRoof: { type: "bool", id: 9 },
        engine: { type: "Engine", id: 10 }, fuelFigures: { rule: "repeated", type: "FuelFigures", id: 11 },
        performanceFigures: { rule: "repeated", type: "PerformanceFigures", id: 12 }, manufacturer: { type: "string", id: 13 }, model: { type: "string", id: 14 },
      },
    },
    MdIncGrp: {
      fields: {
        tradeId: { type: "uint64", id: 1 }, securityId: { type: "uint64", id: 2 }, mdEntryPx: { type: "int64", id: 3 }, mdEntrySize: { type: "int32", id: 4 },
        numberOfOrders: { type: "int32", id: 5 }, mdUpdateAction: { type: "int32", id: 6 }, rptSeq: { type: "int32", id: 7 }, aggressorSide: { type: "int32", id: 8 }, mdEntryType: { type: "int32", id: 9 },
      },
    },
    MarketData: { fields: { transactTime: { type: "uint64", id: 1 }, eventTimeDelta: { type: "int32", id: 2 }, matchEventIndicator: { type: "int32", id: 3 }, mdIncGrp: { rule: "repeated", type: "MdIncGrp", id: 4 } } },
  },
});
const PbCar = root.lookupType("Car");
const PbMd = root.lookupType("MarketData");
interface AnyMsg { [key: string]: any }
function mdPbEncode(): Uint8Array {
  return PbMd.encode({
    transactTime: 1234, eventTimeDelta: 987, matchEventIndicator: 50,
    mdIncGrp: SIDES.map((side) => ({ tradeId: 1234, securityId: 56789, mdEntryPx: 50, mdEntrySize: 10, numberOfOrders: 1, mdUpdateAction: 0, rptSeq: 1, aggressorSide: side, mdEntryType: 50 })),
  }).finish();
}
function mdPbDecode(raw: Uint8Array): number {
  const m = PbMd.decode(raw) as AnyMsg;
  let sum = Number(m["transactTime"]) + m["eventTimeDelta"] + m["matchEventIndicator"];
  for (const g of m["mdIncGrp"] as AnyMsg[]) {
    sum += Number(g["tradeId"]) + Number(g["securityId"]) + Number(g["mdEntryPx"]) + g["mdEntrySize"];
    sum += g["numberOfOrders"] + g["mdUpdateAction"] + g["rptSeq"] + g["aggressorSide"] + g["mdEntryType"];
  }
  return sum;
}
function carPbEncode(): Uint8Array {
  return PbCar.encode({
    serialNumber: 12345, modelYear: 2005, available: true, code: 65, someNumbers: [0, 1, 2, 3, 4], vehicleCode: "abcdef",
    sunRoof: true, sportsPack: true, engine: { capacity: 4200, numCylinders: 8, maxRpm: 9000, manufacturerCode: "abc", fuel: "Petrol" },
    fuelFigures: FUEL.map(([speed, mpg]) => ({ speed, mpg })),
    performanceFigures: PERF.map(([octaneRating, a]) => ({ octaneRating, acceleration: a.map(([mph, seconds]) => ({ mph, seconds })) })),
    manufacturer: "MANUFACTURER", model: "MODEL",
  }).finish();
}
function carPbDecode(raw: Uint8Array): number {
  const c = PbCar.decode(raw) as AnyMsg;
  let sum = Number(c["serialNumber"]) + c["modelYear"] + Number(c["available"]) + c["code"];
  for (const n of c["someNumbers"] as number[]) sum += n;
  sum += (c["vehicleCode"] as string).length + Number(c["cruiseControl"]) + Number(c["sportsPack"]) + Number(c["sunRoof"]);
  const e = c["engine"] as AnyMsg;
  sum += e["capacity"] + e["numCylinders"] + e["maxRpm"] + e["manufacturerCode"].length + e["fuel"].length;
  for (const f of c["fuelFigures"] as AnyMsg[]) sum += f["speed"] + f["mpg"];
  for (const p of c["performanceFigures"] as AnyMsg[]) {
    sum += p["octaneRating"];
    for (const a of p["acceleration"] as AnyMsg[]) sum += a["mph"] + a["seconds"];
  }
  return sum + c["manufacturer"].length + c["model"].length;
}

// --- timing ---
let sink = 0;
function time(fn: () => number, ms: number): number {
  for (let i = 0; i < 20000; i++) sink += fn(); // warm up (optimising compiler)
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 10000; i++) sink += fn();
    n += 10000;
    now = performance.now();
  }
  return ((now - start) * 1e6) / n;
}

const ms = Number(process.argv[2] ?? "1000");
const mdBuf = new Uint8Array(512);
const carBuf = new Uint8Array(512);
const mdLen = mdSableEncode(mdBuf);
const carLen = carSableEncode(carBuf);
const check = new Uint8Array(512);
if (mdViewEncode(check) !== mdLen || check.subarray(0, mdLen).some((b, i) => b !== mdBuf[i])) throw new Error("the baseline writes other bytes");
if (mdViewDecode(mdBuf) !== mdSableDecode(mdBuf)) throw new Error("the baseline reads other values");
if (Math.abs(carPbDecode(carPbEncode()) - carSableDecode(carBuf)) > 1e-3) throw new Error("protobuf's Car differs");
if (mdPbDecode(mdPbEncode()) !== mdSableDecode(mdBuf)) throw new Error("protobuf's MarketData differs");
const mdPb = mdPbEncode();
const carPb = carPbEncode();
const rows: [string, string, number][] = [
  ["MarketData", "encode Sable", time(() => mdSableEncode(mdBuf), ms)],
  ["MarketData", "encode DataView baseline", time(() => mdViewEncode(mdBuf), ms)],
  ["MarketData", "encode protobufjs", time(() => mdPbEncode().length, ms)],
  ["MarketData", "decode Sable", time(() => mdSableDecode(mdBuf), ms)],
  ["MarketData", "decode DataView baseline", time(() => mdViewDecode(mdBuf), ms)],
  ["MarketData", "decode protobufjs", time(() => mdPbDecode(mdPb), ms)],
  ["Car", "encode Sable", time(() => carSableEncode(carBuf), ms)],
  ["Car", "encode protobufjs", time(() => carPbEncode().length, ms)],
  ["Car", "decode Sable", time(() => carSableDecode(carBuf), ms)],
  ["Car", "decode protobufjs", time(() => carPbDecode(carPb), ms)],
];
console.log(`node ${process.version}; MarketData ${mdLen} bytes (protobuf ${mdPb.length}), Car ${carLen} bytes (protobuf ${carPb.length})`);
console.log("| message | case | ns/op |");
console.log("| --- | --- | --- |");
for (const [m, c, ns] of rows) console.log(`| ${m} | ${c} | ${ns.toFixed(1)} |`);
if (sink === 0) console.log("");
