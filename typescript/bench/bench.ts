// The TypeScript codecs' benchmark (docs/benchmarks.md, "TypeScript codecs"): MarketData and Car
// encode and decode (every field read), in one Node process, with Sable's generated codecs,
// hand-written baselines over the same buffer (DataView; for the Car also typed arrays and
// TextEncoder/TextDecoder; each checked to write the same bytes and read the same values) and
// protobufjs (the same messages, built by reflection). scripts/bench-typescript.sh generates the
// codecs under gen/ and compiles this file beside them; scripts/count-typescript.sh counts its
// instructions (--count).
import protobuf from "protobufjs";

import * as car from "./gen/bench-car.js";
import * as fix from "./gen/bench-fix.js";
import { CheckedDecoder, CheckedEncoder } from "./checked.js";
import { MinimalDecoder, MinimalEncoder } from "./minimal.js";

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
  for (let i = 0; i < SIDES.length; i++) {
    const side = SIDES[i]!;
    g.next().tradeId(1234).securityId(56789).mdEntryPxMantissa(50).mdEntrySizeMantissa(10);
    g.numberOfOrders(1).mdUpdateAction(fix.MdUpdateAction.New).rptSeq(1).aggressorSide(side);
  }
  return e.encodedLength();
}
function mdSableDecode(buf: Uint8Array): number {
  const d = mdDec.wrap(buf);
  let sum = d.transactTimeAsNumber() + d.eventTimeDelta + d.matchEventIndicator;
  for (const g of d.mdIncGrp) {
    sum += g.tradeIdAsNumber() + g.securityIdAsNumber() + g.mdEntryPxMantissaAsNumber() + g.mdEntrySizeMantissa;
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
  for (let i = 0; i < FUEL.length; i++) {
    const f = FUEL[i]!;
    const speed = f[0];
    const mpg = f[1];
    fuel.next().speed(speed).mpg(mpg);
  }
  const perf = e.performanceFigures();
  for (let i = 0; i < PERF.length; i++) {
    const pf = PERF[i]!;
    const octane = pf[0];
    const accel = pf[1];
    const a = perf.next().octaneRating(octane).acceleration();
    for (let k = 0; k < accel.length; k++) {
      const x = accel[k]!;
      a.next().mph(x[0]).seconds(x[1]);
    }
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

// --- the least a flyweight can be (minimal.ts: no contract checks; checked.ts: the same with the
// contract's checks), and Sable's groups read with a `hasNext()` loop instead of `for...of` ---
const minEnc = new MinimalEncoder();
const minDec = new MinimalDecoder();
function mdMinimalEncode(buf: Uint8Array): number {
  const e = minEnc.wrap(buf);
  e.transactTime(1234).eventTimeDelta(987).matchEventIndicator(fix.MatchEventIndicator.EndEvent);
  const g = e.mdIncGrp();
  for (let i = 0; i < SIDES.length; i++) {
    const side = SIDES[i]!;
    g.next().tradeId(1234).securityId(56789).mdEntryPxMantissa(50).mdEntrySizeMantissa(10);
    g.numberOfOrders(1).mdUpdateAction(fix.MdUpdateAction.New).rptSeq(1).aggressorSide(side);
  }
  return g.limit;
}
function mdMinimalDecode(buf: Uint8Array): number {
  const d = minDec.wrap(buf);
  let sum = d.transactTimeAsNumber() + d.eventTimeDelta + d.matchEventIndicator;
  for (const g of d.mdIncGrp) {
    sum += g.tradeIdAsNumber() + g.securityIdAsNumber() + g.mdEntryPxMantissaAsNumber() + g.mdEntrySizeMantissa;
    sum += g.numberOfOrders + g.mdUpdateAction + g.rptSeq + g.aggressorSide + fix.MdEntryType.Trade;
  }
  return sum;
}
const ckEnc = new CheckedEncoder();
const ckDec = new CheckedDecoder();
function mdCheckedEncode(buf: Uint8Array): number {
  const e = ckEnc.wrap(buf);
  e.transactTime(1234).eventTimeDelta(987).matchEventIndicator(fix.MatchEventIndicator.EndEvent);
  const g = e.mdIncGrp();
  for (let i = 0; i < SIDES.length; i++) {
    const side = SIDES[i]!;
    g.next().tradeId(1234).securityId(56789).mdEntryPxMantissa(50).mdEntrySizeMantissa(10);
    g.numberOfOrders(1).mdUpdateAction(fix.MdUpdateAction.New).rptSeq(1).aggressorSide(side);
  }
  return g.limit;
}
function mdCheckedDecode(buf: Uint8Array): number {
  const d = ckDec.wrap(buf);
  let sum = d.transactTimeAsNumber() + d.eventTimeDelta + d.matchEventIndicator;
  for (const g of d.mdIncGrp) {
    sum += g.tradeIdAsNumber() + g.securityIdAsNumber() + g.mdEntryPxMantissaAsNumber() + g.mdEntrySizeMantissa;
    sum += g.numberOfOrders + g.mdUpdateAction + g.rptSeq + g.aggressorSide + fix.MdEntryType.Trade;
  }
  return sum;
}
function mdSableDecodeHasNext(buf: Uint8Array): number {
  const d = mdDec.wrap(buf);
  let sum = d.transactTimeAsNumber() + d.eventTimeDelta + d.matchEventIndicator;
  const g = d.mdIncGrp;
  while (g.hasNext()) {
    g.next();
    sum += g.tradeIdAsNumber() + g.securityIdAsNumber() + g.mdEntryPxMantissaAsNumber() + g.mdEntrySizeMantissa;
    sum += g.numberOfOrders + g.mdUpdateAction + g.rptSeq + g.aggressorSide + g.mdEntryType;
  }
  return sum;
}

// --- hand-written DataView (MarketData) ---
function mdViewEncode(v: DataView): number {
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
  for (let i = 0; i < SIDES.length; i++) {
    const side = SIDES[i]!;
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
function mdViewDecode(buf: Uint8Array, v: DataView): number {
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

// --- hand-written DataView (Car): the same fields, text written from and read to strings ---
const MANUFACTURER = "MANUFACTURER";
const MODEL = "MODEL";
/** ASCII text into `buf` at `at` (the caller knows it fits). */
function putAscii(buf: Uint8Array, at: number, text: string): void {
  for (let i = 0; i < text.length; i++) buf[at + i] = text.charCodeAt(i);
}
/** ASCII text into a char array of `size` at `at`, NUL-padded. */
function putChars(buf: Uint8Array, at: number, text: string, size: number): void {
  putAscii(buf, at, text);
  buf.fill(0, at + text.length, at + size);
}
/**
 * Bytes `[start, end)` as text, one character a byte: eight a call to `String.fromCharCode`, as
 * the codecs do (so that the comparison is of the codecs' structure, not of two text routines).
 */
function getLatin1(b: Uint8Array, start: number, end: number): string {
  const f = String.fromCharCode;
  let s = "";
  let i = start;
  for (; end - i >= 8; i += 8) s += f(b[i]!, b[i + 1]!, b[i + 2]!, b[i + 3]!, b[i + 4]!, b[i + 5]!, b[i + 6]!, b[i + 7]!);
  switch (end - i) {
    case 0:
      return s;
    case 1:
      return s + f(b[i]!);
    case 2:
      return s + f(b[i]!, b[i + 1]!);
    case 3:
      return s + f(b[i]!, b[i + 1]!, b[i + 2]!);
    case 4:
      return s + f(b[i]!, b[i + 1]!, b[i + 2]!, b[i + 3]!);
    case 5:
      return s + f(b[i]!, b[i + 1]!, b[i + 2]!, b[i + 3]!, b[i + 4]!);
    case 6:
      return s + f(b[i]!, b[i + 1]!, b[i + 2]!, b[i + 3]!, b[i + 4]!, b[i + 5]!);
    default:
      return s + f(b[i]!, b[i + 1]!, b[i + 2]!, b[i + 3]!, b[i + 4]!, b[i + 5]!, b[i + 6]!);
  }
}
/** Bytes `[start, start + n)` up to the first NUL, as text. */
function getChars(buf: Uint8Array, start: number, n: number): string {
  let end = start;
  while (end < start + n && buf[end] !== 0) end++;
  return getLatin1(buf, start, end);
}
function carViewEncode(buf: Uint8Array, v: DataView): number {
  v.setUint16(0, 41, true);
  v.setUint16(2, 1, true);
  v.setUint16(4, 1, true);
  v.setUint16(6, 1, true);
  v.setUint8(15, 65);
  v.setUint16(12, 2005, true);
  v.setUint32(8, 12345, true);
  v.setUint8(14, 1);
  const numbers = [0, 1, 2, 3, 4];
  for (let i = 0; i < 5; i++) v.setInt32(16 + i * 4, numbers[i]!, true);
  putChars(buf, 36, "abcdef", 6);
  v.setUint8(42, 0x2 | 0x1);
  v.setUint16(43, 4200, true);
  v.setUint8(45, 8);
  putChars(buf, 46, "abc", 3);
  let p = 49;
  v.setUint16(p, 6, true);
  v.setUint16(p + 2, FUEL.length, true);
  p += 4;
  for (let i = 0; i < FUEL.length; i++) {
    const f = FUEL[i]!;
    const speed = f[0];
    const mpg = f[1];
    v.setUint16(p, speed, true);
    v.setFloat32(p + 2, mpg, true);
    p += 6;
  }
  v.setUint16(p, 1, true);
  v.setUint16(p + 2, PERF.length, true);
  p += 4;
  for (let i = 0; i < PERF.length; i++) {
    const pf = PERF[i]!;
    const octane = pf[0];
    const accel = pf[1];
    v.setUint8(p, octane);
    v.setUint16(p + 1, 6, true);
    v.setUint16(p + 3, accel.length, true);
    p += 5;
    for (let k = 0; k < accel.length; k++) {
      const x = accel[k]!;
      const mph = x[0];
      const seconds = x[1];
      v.setUint16(p, mph, true);
      v.setFloat32(p + 2, seconds, true);
      p += 6;
    }
  }
  v.setUint32(p, MANUFACTURER.length, true);
  putAscii(buf, p + 4, MANUFACTURER);
  p += 4 + MANUFACTURER.length;
  v.setUint32(p, MODEL.length, true);
  putAscii(buf, p + 4, MODEL);
  return p + 4 + MODEL.length;
}
function carViewDecode(buf: Uint8Array, v: DataView): number {
  const n = buf.length;
  if (v.getUint16(4, true) !== 1 || v.getUint16(2, true) !== 1) throw new Error("not a Car");
  const block = v.getUint16(0, true);
  if (block < 41 || 8 + block > n) throw new Error("truncated");
  let sum = v.getUint32(8, true) + v.getUint16(12, true) + v.getUint8(14) + v.getUint8(15);
  for (let i = 0; i < 5; i++) sum += v.getInt32(16 + i * 4, true);
  sum += getChars(buf, 36, 6).length;
  const x = v.getUint8(42);
  sum += Number((x & 4) !== 0) + Number((x & 2) !== 0) + Number((x & 1) !== 0);
  sum += v.getUint16(43, true) + v.getUint8(45) + 9000 + getChars(buf, 46, 3).length + "Petrol".length;
  let p = 8 + block;
  if (p + 4 > n) throw new Error("truncated");
  let entry = v.getUint16(p, true);
  let count = v.getUint16(p + 2, true);
  p += 4;
  if (p + count * entry > n) throw new Error("truncated");
  for (let i = 0; i < count; i++, p += entry) sum += v.getUint16(p, true) + v.getFloat32(p + 2, true);
  if (p + 4 > n) throw new Error("truncated");
  entry = v.getUint16(p, true);
  count = v.getUint16(p + 2, true);
  p += 4;
  for (let i = 0; i < count; i++) {
    if (p + entry + 4 > n) throw new Error("truncated");
    sum += v.getUint8(p);
    p += entry;
    const inner = v.getUint16(p, true);
    const innerCount = v.getUint16(p + 2, true);
    p += 4;
    if (p + innerCount * inner > n) throw new Error("truncated");
    for (let k = 0; k < innerCount; k++, p += inner) sum += v.getUint16(p, true) + v.getFloat32(p + 2, true);
  }
  for (let k = 0; k < 2; k++) {
    if (p + 4 > n) throw new Error("truncated");
    const length = v.getUint32(p, true);
    p += 4;
    if (p + length > n) throw new Error("truncated");
    sum += getLatin1(buf, p, p + length).length;
    p += length;
  }
  return sum;
}

// --- the same as carView*, with typed-array access: bytes assembled, floats through a scratch ---
const f32 = new Float32Array(1);
const f32Bytes = new Uint8Array(f32.buffer);
function put16(b: Uint8Array, p: number, n: number): void {
  b[p] = n;
  b[p + 1] = n >>> 8;
}
function put32(b: Uint8Array, p: number, n: number): void {
  b[p] = n;
  b[p + 1] = n >>> 8;
  b[p + 2] = n >>> 16;
  b[p + 3] = n >>> 24;
}
function putF32(b: Uint8Array, p: number, x: number): void {
  f32[0] = x;
  b[p] = f32Bytes[0]!;
  b[p + 1] = f32Bytes[1]!;
  b[p + 2] = f32Bytes[2]!;
  b[p + 3] = f32Bytes[3]!;
}
const get16 = (b: Uint8Array, p: number) => b[p]! | (b[p + 1]! << 8);
const getI32 = (b: Uint8Array, p: number) => b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24);
const get32 = (b: Uint8Array, p: number) => getI32(b, p) >>> 0;
function getF32(b: Uint8Array, p: number): number {
  f32Bytes[0] = b[p]!;
  f32Bytes[1] = b[p + 1]!;
  f32Bytes[2] = b[p + 2]!;
  f32Bytes[3] = b[p + 3]!;
  return f32[0]!;
}
function carBytesEncode(b: Uint8Array): number {
  put16(b, 0, 41);
  put16(b, 2, 1);
  put16(b, 4, 1);
  put16(b, 6, 1);
  b[15] = 65;
  put16(b, 12, 2005);
  put32(b, 8, 12345);
  b[14] = 1;
  const numbers = [0, 1, 2, 3, 4];
  for (let i = 0; i < 5; i++) put32(b, 16 + i * 4, numbers[i]!);
  putChars(b, 36, "abcdef", 6);
  b[42] = 0x2 | 0x1;
  put16(b, 43, 4200);
  b[45] = 8;
  putChars(b, 46, "abc", 3);
  let p = 49;
  put16(b, p, 6);
  put16(b, p + 2, FUEL.length);
  p += 4;
  for (let i = 0; i < FUEL.length; i++) {
    const f = FUEL[i]!;
    const speed = f[0];
    const mpg = f[1];
    put16(b, p, speed);
    putF32(b, p + 2, mpg);
    p += 6;
  }
  put16(b, p, 1);
  put16(b, p + 2, PERF.length);
  p += 4;
  for (let i = 0; i < PERF.length; i++) {
    const pf = PERF[i]!;
    const octane = pf[0];
    const accel = pf[1];
    b[p] = octane;
    put16(b, p + 1, 6);
    put16(b, p + 3, accel.length);
    p += 5;
    for (let k = 0; k < accel.length; k++) {
      const x = accel[k]!;
      const mph = x[0];
      const seconds = x[1];
      put16(b, p, mph);
      putF32(b, p + 2, seconds);
      p += 6;
    }
  }
  put32(b, p, MANUFACTURER.length);
  putAscii(b, p + 4, MANUFACTURER);
  p += 4 + MANUFACTURER.length;
  put32(b, p, MODEL.length);
  putAscii(b, p + 4, MODEL);
  return p + 4 + MODEL.length;
}
function carBytesDecode(b: Uint8Array): number {
  const n = b.length;
  if (get16(b, 4) !== 1 || get16(b, 2) !== 1) throw new Error("not a Car");
  const block = get16(b, 0);
  if (block < 41 || 8 + block > n) throw new Error("truncated");
  let sum = get32(b, 8) + get16(b, 12) + b[14]! + b[15]!;
  for (let i = 0; i < 5; i++) sum += getI32(b, 16 + i * 4);
  sum += getChars(b, 36, 6).length;
  const x = b[42]!;
  sum += Number((x & 4) !== 0) + Number((x & 2) !== 0) + Number((x & 1) !== 0);
  sum += get16(b, 43) + b[45]! + 9000 + getChars(b, 46, 3).length + "Petrol".length;
  let p = 8 + block;
  if (p + 4 > n) throw new Error("truncated");
  let entry = get16(b, p);
  let count = get16(b, p + 2);
  p += 4;
  if (p + count * entry > n) throw new Error("truncated");
  for (let i = 0; i < count; i++, p += entry) sum += get16(b, p) + getF32(b, p + 2);
  if (p + 4 > n) throw new Error("truncated");
  entry = get16(b, p);
  count = get16(b, p + 2);
  p += 4;
  for (let i = 0; i < count; i++) {
    if (p + entry + 4 > n) throw new Error("truncated");
    sum += b[p]!;
    p += entry;
    const inner = get16(b, p);
    const innerCount = get16(b, p + 2);
    p += 4;
    if (p + innerCount * inner > n) throw new Error("truncated");
    for (let k = 0; k < innerCount; k++, p += inner) sum += get16(b, p) + getF32(b, p + 2);
  }
  for (let k = 0; k < 2; k++) {
    if (p + 4 > n) throw new Error("truncated");
    const length = get32(b, p);
    p += 4;
    if (p + length > n) throw new Error("truncated");
    sum += getLatin1(b, p, p + length).length;
    p += length;
  }
  return sum;
}

// --- the same as carView*, with text through TextEncoder.encodeInto and TextDecoder ---
const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();
function carTextEncode(buf: Uint8Array, v: DataView): number {
  v.setUint16(0, 41, true);
  v.setUint16(2, 1, true);
  v.setUint16(4, 1, true);
  v.setUint16(6, 1, true);
  v.setUint8(15, 65);
  v.setUint16(12, 2005, true);
  v.setUint32(8, 12345, true);
  v.setUint8(14, 1);
  const numbers = [0, 1, 2, 3, 4];
  for (let i = 0; i < 5; i++) v.setInt32(16 + i * 4, numbers[i]!, true);
  let w = textEncoder.encodeInto("abcdef", buf.subarray(36, 42)).written;
  buf.fill(0, 36 + w, 42);
  v.setUint8(42, 0x2 | 0x1);
  v.setUint16(43, 4200, true);
  v.setUint8(45, 8);
  w = textEncoder.encodeInto("abc", buf.subarray(46, 49)).written;
  buf.fill(0, 46 + w, 49);
  let p = 49;
  v.setUint16(p, 6, true);
  v.setUint16(p + 2, FUEL.length, true);
  p += 4;
  for (let i = 0; i < FUEL.length; i++) {
    const f = FUEL[i]!;
    const speed = f[0];
    const mpg = f[1];
    v.setUint16(p, speed, true);
    v.setFloat32(p + 2, mpg, true);
    p += 6;
  }
  v.setUint16(p, 1, true);
  v.setUint16(p + 2, PERF.length, true);
  p += 4;
  for (let i = 0; i < PERF.length; i++) {
    const pf = PERF[i]!;
    const octane = pf[0];
    const accel = pf[1];
    v.setUint8(p, octane);
    v.setUint16(p + 1, 6, true);
    v.setUint16(p + 3, accel.length, true);
    p += 5;
    for (let k = 0; k < accel.length; k++) {
      const x = accel[k]!;
      const mph = x[0];
      const seconds = x[1];
      v.setUint16(p, mph, true);
      v.setFloat32(p + 2, seconds, true);
      p += 6;
    }
  }
  w = textEncoder.encodeInto(MANUFACTURER, buf.subarray(p + 4)).written;
  v.setUint32(p, w, true);
  p += 4 + w;
  w = textEncoder.encodeInto(MODEL, buf.subarray(p + 4)).written;
  v.setUint32(p, w, true);
  return p + 4 + w;
}
function textChars(buf: Uint8Array, start: number, n: number): string {
  let end = start;
  while (end < start + n && buf[end] !== 0) end++;
  return textDecoder.decode(buf.subarray(start, end));
}
function carTextDecode(buf: Uint8Array, v: DataView): number {
  const n = buf.length;
  if (v.getUint16(4, true) !== 1 || v.getUint16(2, true) !== 1) throw new Error("not a Car");
  const block = v.getUint16(0, true);
  if (block < 41 || 8 + block > n) throw new Error("truncated");
  let sum = v.getUint32(8, true) + v.getUint16(12, true) + v.getUint8(14) + v.getUint8(15);
  for (let i = 0; i < 5; i++) sum += v.getInt32(16 + i * 4, true);
  sum += textChars(buf, 36, 6).length;
  const x = v.getUint8(42);
  sum += Number((x & 4) !== 0) + Number((x & 2) !== 0) + Number((x & 1) !== 0);
  sum += v.getUint16(43, true) + v.getUint8(45) + 9000 + textChars(buf, 46, 3).length + "Petrol".length;
  let p = 8 + block;
  if (p + 4 > n) throw new Error("truncated");
  let entry = v.getUint16(p, true);
  let count = v.getUint16(p + 2, true);
  p += 4;
  if (p + count * entry > n) throw new Error("truncated");
  for (let i = 0; i < count; i++, p += entry) sum += v.getUint16(p, true) + v.getFloat32(p + 2, true);
  if (p + 4 > n) throw new Error("truncated");
  entry = v.getUint16(p, true);
  count = v.getUint16(p + 2, true);
  p += 4;
  for (let i = 0; i < count; i++) {
    if (p + entry + 4 > n) throw new Error("truncated");
    sum += v.getUint8(p);
    p += entry;
    const inner = v.getUint16(p, true);
    const innerCount = v.getUint16(p + 2, true);
    p += 4;
    if (p + innerCount * inner > n) throw new Error("truncated");
    for (let k = 0; k < innerCount; k++, p += inner) sum += v.getUint16(p, true) + v.getFloat32(p + 2, true);
  }
  for (let k = 0; k < 2; k++) {
    if (p + 4 > n) throw new Error("truncated");
    const length = v.getUint32(p, true);
    p += 4;
    if (p + length > n) throw new Error("truncated");
    sum += textDecoder.decode(buf.subarray(p, p + length)).length;
    p += length;
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
/** CPU time of this process (every thread, the collector's too), in milliseconds. */
function cpu(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
/** Calls `fn` `n` times (20000 times warms it up: the optimising compiler). */
function repeat(fn: () => number, n = 20000): void {
  for (let i = 0; i < n; i++) sink += fn();
}
/** ns per call of `fn`, over `ms` milliseconds of this process's CPU time. */
function time(fn: () => number, ms: number): number {
  let n = 0;
  const start = cpu();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 2000; i++) sink += fn();
    n += 2000;
    now = cpu();
  }
  return ((now - start) * 1e6) / n;
}

const mdBuf = new Uint8Array(512);
const carBuf = new Uint8Array(512);
const mdLen = mdSableEncode(mdBuf);
const carLen = carSableEncode(carBuf);
const check = new Uint8Array(512);
const checkView = new DataView(check.buffer);
// The baselines' views: made once per buffer, as the codecs keep theirs.
const mdView = new DataView(mdBuf.buffer);
const carView = new DataView(carBuf.buffer);
const same = (n: number, want: Uint8Array, len: number) => n === len && check.subarray(0, len).every((b, i) => b === want[i]);
if (!same(mdViewEncode(checkView), mdBuf, mdLen)) throw new Error("the MarketData baseline writes other bytes");
if (mdViewDecode(mdBuf, mdView) !== mdSableDecode(mdBuf)) throw new Error("the MarketData baseline reads other values");
check.fill(0xee);
if (!same(mdMinimalEncode(check), mdBuf, mdLen)) throw new Error("the minimal flyweight writes other bytes");
if (mdMinimalDecode(mdBuf) !== mdSableDecode(mdBuf)) throw new Error("the minimal flyweight reads other values");
check.fill(0xee);
if (!same(mdCheckedEncode(check), mdBuf, mdLen)) throw new Error("the checked flyweight writes other bytes");
if (mdCheckedDecode(mdBuf) !== mdSableDecode(mdBuf)) throw new Error("the checked flyweight reads other values");
if (mdSableDecodeHasNext(mdBuf) !== mdSableDecode(mdBuf)) throw new Error("the hasNext() loop reads other values");
const carEncoders: [string, () => number][] = [
  ["DataView", () => carViewEncode(check, checkView)],
  ["typed-array", () => carBytesEncode(check)],
  ["TextEncoder", () => carTextEncode(check, checkView)],
];
for (const [name, enc] of carEncoders) {
  check.fill(0xee);
  if (!same(enc(), carBuf, carLen)) throw new Error(`the Car ${name} baseline writes other bytes`);
}
const carDecoders: [string, () => number][] = [
  ["DataView", () => carViewDecode(carBuf, carView)],
  ["typed-array", () => carBytesDecode(carBuf)],
  ["TextDecoder", () => carTextDecode(carBuf, carView)],
];
for (const [name, dec] of carDecoders) {
  if (Math.abs(dec() - carSableDecode(carBuf)) > 1e-9) throw new Error(`the Car ${name} baseline reads other values`);
}
if (Math.abs(carPbDecode(carPbEncode()) - carSableDecode(carBuf)) > 1e-3) throw new Error("protobuf's Car differs");
if (mdPbDecode(mdPbEncode()) !== mdSableDecode(mdBuf)) throw new Error("protobuf's MarketData differs");
const mdPb = mdPbEncode();
const carPb = carPbEncode();
/**
 * What every case reads its buffer (and the baselines their view) from: fields of an object,
 * each written twice (so V8 does not take them for constants), as a program's would be. Views
 * and buffers held in constants are folded into the compiled code, which flatters the code that
 * uses them (the hand-written baselines by about 2 ns per DataView access in this harness).
 */
const io = { md: check, car: check, mdView: checkView, carView: checkView, mdPb: check, carPb: check };
Object.assign(io, { md: mdBuf, car: carBuf, mdView: new DataView(mdBuf.buffer), carView: new DataView(carBuf.buffer), mdPb, carPb });
const cases: [string, string, () => number][] = [
  ["MarketData", "encode Sable", () => mdSableEncode(io.md)],
  ["MarketData", "encode DataView baseline", () => mdViewEncode(io.mdView)],
  ["MarketData", "encode protobufjs", () => mdPbEncode().length],
  ["MarketData", "decode Sable", () => mdSableDecode(io.md)],
  ["MarketData", "decode DataView baseline", () => mdViewDecode(io.md, io.mdView)],
  ["MarketData", "decode protobufjs", () => mdPbDecode(io.mdPb)],
  ["MarketData", "encode minimal flyweight", () => mdMinimalEncode(io.md)],
  ["MarketData", "decode minimal flyweight", () => mdMinimalDecode(io.md)],
  ["MarketData", "encode checked flyweight", () => mdCheckedEncode(io.md)],
  ["MarketData", "decode checked flyweight", () => mdCheckedDecode(io.md)],
  ["MarketData", "decode Sable, hasNext() loop", () => mdSableDecodeHasNext(io.md)],
  ["Car", "encode Sable", () => carSableEncode(io.car)],
  ["Car", "encode DataView baseline", () => carViewEncode(io.car, io.carView)],
  ["Car", "encode protobufjs", () => carPbEncode().length],
  ["Car", "encode typed-array baseline", () => carBytesEncode(io.car)],
  ["Car", "encode DataView + TextEncoder", () => carTextEncode(io.car, io.carView)],
  ["Car", "decode Sable", () => carSableDecode(io.car)],
  ["Car", "decode DataView baseline", () => carViewDecode(io.car, io.carView)],
  ["Car", "decode protobufjs", () => carPbDecode(io.carPb)],
  ["Car", "decode typed-array baseline", () => carBytesDecode(io.car)],
  ["Car", "decode DataView + TextDecoder", () => carTextDecode(io.car, io.carView)],
];
// The harness's call sites made megamorphic first, so that no case is compiled into the harness
// (each is compiled on its own, as a program's function calling the codecs would be, with the
// inlining budget of its own).
for (let k = 0; k < 8; k++) {
  const dummy = new Function(`return ${k};`) as () => number;
  repeat(dummy);
  time(dummy, 0);
}

if (process.argv[2] === "--count") {
  // `--count CASE N`: CASE ("Car encode Sable") warmed up, then called N times, nothing printed:
  // what scripts/count-typescript.sh counts the instructions of.
  const name = process.argv[3];
  const found = cases.find(([m, c]) => `${m} ${c}` === name);
  if (found === undefined) throw new Error(`no case ${name}`);
  repeat(found[2]);
  repeat(found[2], Number(process.argv[4] ?? "10000"));
} else {
  // Every case warmed up, then timed in ROUNDS rounds of MS / ROUNDS each, the cases taking turns;
  // each case's best round counts (on a shared machine, the round least disturbed by others).
  const ms = Number(process.argv[2] ?? "1000");
  // Only the cases whose "message case" contains this text (all by default).
  const only = process.argv[3] ?? "";
  const rounds = Number(process.argv[4] ?? "5");
  const chosen = cases.filter(([m, c]) => `${m} ${c}`.includes(only));
  for (const [, , fn] of chosen) repeat(fn);
  const best = chosen.map(() => Infinity);
  for (let r = 0; r < rounds; r++) {
    chosen.forEach(([, , fn], i) => {
      best[i] = Math.min(best[i]!, time(fn, ms / rounds));
    });
  }
  console.log(`node ${process.version}; MarketData ${mdLen} bytes (protobuf ${mdPb.length}), Car ${carLen} bytes (protobuf ${carPb.length})`);
  console.log("| message | case | ns/op | Sable / case |");
  console.log("| --- | --- | --- | --- |");
  for (const [i, [m, c]] of chosen.entries()) {
    const op = c.split(" ")[0];
    const sable = chosen.findIndex(([m2, c2]) => m2 === m && c2 === `${op} Sable`);
    const ratio = sable < 0 || c.endsWith("Sable") ? "" : (best[sable]! / best[i]!).toFixed(2);
    console.log(`| ${m} | ${c} | ${best[i]!.toFixed(1)} | ${ratio} |`);
  }
}
if (sink === 0) console.log("");
