// Tests of the generated TypeScript codecs (node --test; scripts/typescript-tests.sh generates
// the modules under gen/ and compiles this file beside them). SABLE_ROOT names the repository.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import * as be from "./gen/bigendian.js";
import * as car from "./gen/car.js";
import * as v0 from "./gen/evolution-v0.js";
import * as v1 from "./gen/evolution-v1.js";
import * as st from "./gen/structure.js";
import { DecodeError, EncodeError } from "./gen/sable.js";

const ROOT = process.env["SABLE_ROOT"] ?? process.cwd();

interface Vector {
  name: string;
  hex: string;
  json: unknown;
}

function vector(file: string, name: string): { bytes: Uint8Array; json: string } {
  for (const line of readFileSync(join(ROOT, "conformance/vectors", file), "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const v = JSON.parse(line) as Vector;
    if (v.name === name) {
      // The JSON as the vector holds it, as text.
      const start = line.indexOf('"json":') + 7;
      const text = line.slice(start, objectEnd(line, start));
      return { bytes: Uint8Array.from(Buffer.from(v.hex, "hex")), json: text };
    }
  }
  throw new Error(`no vector ${name} in ${file}`);
}

/** The end of the JSON object starting at `start` of `text`. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let quoted = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === "\\") i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i + 1;
  }
  throw new Error("unbalanced JSON");
}

/** The Car of conformance/vectors/car.jsonl, written through an encoder. */
function encodeCar(buf: Uint8Array, offset = 0): number {
  const e = new car.CarEncoder().wrap(buf, offset);
  e.serialNumber(1234n).modelYear(2013).available(car.BooleanType.T).code(car.Model.A);
  e.someNumbers([0, 1, 2, 3, 4]).vehicleCode("abcdef");
  e.extras(car.OptionalExtras.SPORTS_PACK | car.OptionalExtras.CRUISE_CONTROL);
  const engine = e.engine().capacity(2000).numCylinders(4).manufacturerCode("123").efficiency(35);
  engine.boosterEnabled(car.BooleanType.T).booster().boostType(car.BoostType.Nitrous).horsePower(200);
  const fuel = e.fuelFigures();
  fuel.next().speed(30).mpg(35.9).usageDescription("Urban Cycle");
  fuel.next().speed(55).mpg(49.0).usageDescription("Combined Cycle");
  fuel.next().speed(75).mpg(40.0).usageDescription("Highway Cycle");
  const perf = e.performanceFigures();
  for (const [octane, accel] of [
    [95, [[30, 4.0], [60, 7.5], [100, 12.2]]],
    [99, [[30, 3.8], [60, 7.1], [100, 11.8]]],
  ] as const) {
    const a = perf.next().octaneRating(octane).acceleration();
    for (const [mph, seconds] of accel) a.next().mph(mph).seconds(seconds);
  }
  e.manufacturer("Honda").model("Civic VTi").activationCode("abcdef");
  return e.encodedLength();
}

test("the Car encodes to the conformance vector's bytes and decodes to its JSON", () => {
  const v = vector("car.jsonl", "car");
  const buf = new Uint8Array(512);
  const n = encodeCar(buf);
  assert.deepEqual(buf.subarray(0, n), v.bytes);
  const d = car.CarDecoder.decode(v.bytes);
  assert.equal(d.toJson(), v.json);
  assert.equal(String(d), v.json);
  assert.equal(car.toJson(v.bytes), v.json);
  assert.equal(d.encodedLength(), v.bytes.length);
});

test("fields, groups (for...of) and var data read back", () => {
  const d = car.CarDecoder.decode(vector("car.jsonl", "car").bytes);
  assert.equal(d.serialNumber, 1234n);
  assert.equal(d.serialNumberAsNumber(), 1234);
  assert.equal(d.modelYear, 2013);
  assert.equal(d.code, car.Model.A);
  assert.equal(d.discountedModel, car.Model.C);
  assert.deepEqual(d.someNumbers, [0, 1, 2, 3, 4]);
  assert.equal(d.someNumbersAt(4), 4);
  assert.throws(() => d.someNumbersAt(5), RangeError);
  assert.equal(d.vehicleCode, "abcdef");
  assert.equal(d.vehicleCodeBytes.length, 6);
  assert.ok(d.extras.sportsPack && d.extras.cruiseControl && !d.extras.sunRoof);
  assert.equal(d.engine.capacity, 2000);
  assert.equal(d.engine.maxRpm, 9000);
  assert.equal(d.engine.fuel, "Petrol");
  assert.equal(d.engine.booster.boostType, car.BoostType.Nitrous);
  const speeds: number[] = [];
  const fuel = d.fuelFigures;
  assert.equal(fuel.count, 3);
  for (const f of fuel) speeds.push(f.speed);
  assert.deepEqual(speeds, [30, 55, 75]);
  const seconds: number[] = [];
  for (const p of d.performanceFigures) for (const a of p.acceleration) seconds.push(a.seconds);
  assert.equal(seconds.length, 6);
  assert.ok(Math.abs(seconds[2]! - 12.2) < 1e-6);
  assert.equal(d.manufacturer, "Honda");
  assert.deepEqual([...d.modelBytes], [...new TextEncoder().encode("Civic VTi")]);
  assert.equal(d.activationCode, "abcdef");
});

test("groups and var data read in any order, JSON at any point", () => {
  const v = vector("car.jsonl", "car");
  const d = car.CarDecoder.decode(v.bytes);
  assert.equal(d.activationCode, "abcdef");
  assert.equal(d.manufacturer, "Honda");
  const perf = d.performanceFigures;
  perf.next();
  assert.equal(d.toJson(), v.json);
  assert.equal(perf.octaneRating, 95);
  assert.equal(d.fuelFigures.count, 3);
  assert.equal(d.model, "Civic VTi");
  assert.equal(d.encodedLength(), v.bytes.length);
});

test("a message at an offset, in an ArrayBuffer or a Uint8Array over part of one", () => {
  const v = vector("car.jsonl", "car");
  const backing = new ArrayBuffer(1024);
  const whole = new Uint8Array(backing);
  const n = encodeCar(whole, 100);
  assert.deepEqual(whole.subarray(100, 100 + n), v.bytes);
  assert.equal(car.toJson(backing, 100, n), v.json);
  const part = new Uint8Array(backing, 37, 500);
  assert.equal(car.CarDecoder.decode(part, 63).toJson(), v.json);
  assert.equal(new car.CarEncoder().wrap(part, 63).serialNumber(7n).encodedLength(), 8 + 49);
});

test("every cut of the Car is a truncated error, at or before the cut", () => {
  const v = vector("car.jsonl", "car");
  for (let n = 0; n < v.bytes.length; n++) {
    try {
      car.toJson(v.bytes.subarray(0, n));
      assert.fail(`a cut to ${n} bytes decoded`);
    } catch (e) {
      assert.ok(e instanceof DecodeError, String(e));
      assert.equal(e.kind, "truncated");
      assert.ok(e.offset <= n, `offset ${e.offset} past the cut ${n}`);
    }
  }
  const e = decodeError(() => car.toJson(v.bytes.subarray(0, 205)));
  assert.deepEqual([e.offset, e.field], [201, "fields.activationCode"]);
  const f = decodeError(() => car.toJson(v.bytes.subarray(0, 152)));
  assert.deepEqual([f.offset, f.field], [150, "fields.performanceFigures[0].acceleration[2]"]);
  assert.match(f.json(), /^\{"offset":150,"field":"fields.performanceFigures\[0\].acceleration\[2\]","kind":"truncated","message":".*"\}$/);
});

function decodeError(f: () => unknown): DecodeError {
  try {
    f();
  } catch (e) {
    if (e instanceof DecodeError) return e;
    throw e;
  }
  assert.fail("no error");
}

function encodeError(f: () => unknown): EncodeError {
  try {
    f();
  } catch (e) {
    if (e instanceof EncodeError) return e;
    throw e;
  }
  assert.fail("no error");
}

test("header errors: schema id, template id, block length", () => {
  const bytes = vector("car.jsonl", "car").bytes.slice();
  const view = new DataView(bytes.buffer);
  view.setUint16(4, 9, true);
  assert.deepEqual(pick(decodeError(() => car.toJson(bytes))), [4, "header.schemaId", "schemaIdMismatch"]);
  view.setUint16(4, 1, true);
  view.setUint16(2, 77, true);
  assert.deepEqual(pick(decodeError(() => car.toJson(bytes))), [2, "header.templateId", "unknownTemplate"]);
  assert.deepEqual(pick(decodeError(() => car.CarDecoder.decode(bytes))), [2, "header.templateId", "unknownTemplate"]);
  view.setUint16(2, 1, true);
  view.setUint16(0, 48, true);
  assert.deepEqual(pick(decodeError(() => car.toJson(bytes))), [0, "header.blockLength", "blockLengthTooShort"]);
});

function pick(e: DecodeError | EncodeError): [number, string, string] {
  return [e.offset, e.field, e.kind];
}

test("encoder errors: the contract's kinds, paths, and nothing written", () => {
  const buf = new Uint8Array(300);
  const e = new car.CarEncoder().wrap(buf);
  assert.deepEqual(pick(encodeError(() => e.vehicleCode("abcdefg"))), [32 + 8, "fields.vehicleCode", "textTooLong"]);
  assert.deepEqual(pick(encodeError(() => e.someNumbers([1, 2]))).slice(1), ["fields.someNumbers", "indexOutOfRange"]);
  assert.deepEqual(pick(encodeError(() => e.someNumbersAt(5, 1))).slice(1), ["fields.someNumbers", "indexOutOfRange"]);
  assert.deepEqual(pick(encodeError(() => e.modelYear(70000))).slice(1), ["fields.modelYear", "valueOutOfRange"]);
  assert.deepEqual(pick(encodeError(() => e.modelYear(1.5))).slice(1), ["fields.modelYear", "valueOutOfRange"]);
  assert.deepEqual(pick(encodeError(() => e.serialNumber(-1n))).slice(1), ["fields.serialNumber", "valueOutOfRange"]);
  assert.deepEqual(pick(encodeError(() => e.serialNumber(2 ** 60))).slice(1), ["fields.serialNumber", "valueOutOfRange"]);
  const engine = e.engine();
  assert.deepEqual(pick(encodeError(() => engine.efficiency(101))).slice(1), ["fields.engine.efficiency", "valueOutOfRange"]);
  assert.deepEqual(pick(encodeError(() => engine.booster().horsePower(256))).slice(1), ["fields.engine.booster.horsePower", "valueOutOfRange"]);
  const fuel = e.fuelFigures();
  fuel.next().speed(1);
  fuel.next();
  assert.deepEqual(pick(encodeError(() => fuel.speed(-1))).slice(1), ["fields.fuelFigures[1].speed", "valueOutOfRange"]);
  e.performanceFigures();
  const before = e.encodedLength();
  assert.deepEqual(pick(encodeError(() => e.manufacturer("x".repeat(300)))).slice(1), ["fields.manufacturer", "bufferTooShort"]);
  assert.equal(e.encodedLength(), before);
  assert.deepEqual(pick(encodeError(() => new car.CarEncoder().wrap(new Uint8Array(56)))), [0, "fields", "bufferTooShort"]);
  const small = new car.CarEncoder().wrap(new Uint8Array(60));
  assert.deepEqual(pick(encodeError(() => small.fuelFigures())), [57, "fields.fuelFigures", "bufferTooShort"]);
  const g = new st.GroupsEncoder().wrap(new Uint8Array(100));
  g.legs();
  const tags = g.tags();
  for (let i = 0; i < 38; i++) tags.next().tag(i);
  assert.equal(pick(encodeError(() => tags.next()))[2], "bufferTooShort");
});

test("unknown enum values and set bits are kept", () => {
  const bytes = vector("car.jsonl", "car").bytes.slice();
  bytes[8 + 11] = 0x5a; // code: 'Z', no name
  bytes[8 + 38] = 0x80 | 0x01; // extras: sunRoof and an unnamed bit 7
  const d = car.CarDecoder.decode(bytes);
  assert.equal(d.code, 0x5a);
  assert.equal(car.modelName(d.code), undefined);
  assert.equal(car.modelName(car.Model.B), "B");
  assert.ok(d.extras.sunRoof);
  assert.equal(d.extras.raw, 0x81);
  assert.match(d.toJson(), /"code":\{"unknown":90\}.*"extras":\["sunRoof",7\]/);
});

test("big-endian: the Car's vector decodes, and encodes back", () => {
  const v = vector("car.jsonl", "car-bigendian");
  const d = be.CarDecoder.decode(v.bytes);
  assert.equal(d.toJson(), v.json);
  assert.equal(d.serialNumber, 1234n);
  assert.equal(d.modelYear, 2013);
  const buf = new Uint8Array(512);
  const e = new be.CarEncoder().wrap(buf);
  e.serialNumber(d.serialNumber).modelYear(d.modelYear).available(d.available).code(d.code);
  e.someNumbers(d.someNumbers).vehicleCode(d.vehicleCodeBytes).extras(d.extras);
  const eng = e.engine().capacity(d.engine.capacity).numCylinders(d.engine.numCylinders);
  eng.manufacturerCode(d.engine.manufacturerCodeBytes).efficiency(d.engine.efficiency).boosterEnabled(d.engine.boosterEnabled);
  eng.booster().boostType(d.engine.booster.boostType).horsePower(d.engine.booster.horsePower);
  const fuel = e.fuelFigures();
  for (const f of d.fuelFigures) fuel.next().speed(f.speed).mpg(f.mpg).usageDescription(f.usageDescription);
  const perf = e.performanceFigures();
  for (const p of d.performanceFigures) {
    const a = perf.next().octaneRating(p.octaneRating).acceleration();
    for (const x of p.acceleration) a.next().mph(x.mph).seconds(x.seconds);
  }
  e.manufacturer(d.manufacturer).model(d.model).activationCode(d.activationCode);
  assert.deepEqual(e.bytes(), v.bytes);
  assert.equal(new DataView(buf.buffer).getUint16(8 + 8), 2013);
});

test("versions: an older writer's message reads its newer fields as null; a newer one's extra bytes are skipped", () => {
  const buf = new Uint8Array(200);
  const e = new v0.EvolvingEncoder().wrap(buf);
  e.id(7).qty(-3);
  e.entries().next().value(11);
  e.text("old");
  const d = v1.EvolvingDecoder.decode(e.bytes());
  assert.equal(d.actingVersion, 0);
  assert.equal(d.actingBlockLength, 8);
  assert.equal(d.added, null);
  assert.equal(d.qty, -3);
  assert.equal(d.newText, "");
  for (const entry of d.entries) assert.equal(entry.value, 11);
  assert.match(d.toJson(), /"added":null,"addedFlag":null,.*"extra":null.*"text":"old","newText":null/);
  const n = new v1.EvolvingEncoder().wrap(buf);
  n.id(8).qty(4).added(5).addedFlag(v1.Bool.T);
  n.entries().next().value(12).extra(-1);
  n.text("new").newText("newer");
  const old = v0.EvolvingDecoder.decode(n.bytes());
  assert.equal(old.actingVersion, 1);
  assert.equal(old.id, 8);
  assert.equal(old.text, "new");
  assert.equal(old.encodedLength(), n.encodedLength() - 4 - 5);
});

/** A seeded generator (mulberry32): the same messages each run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test("300 seeded random messages with nested groups and var data round-trip", () => {
  const r = rng(20);
  const int = (n: number): number => Math.floor(r() * n);
  const text = (): string => {
    const chars = ["a", "Z", "0", " ", "é", "€", "😀", "\n"];
    let s = "";
    for (let i = int(8); i > 0; i--) s += chars[int(chars.length)]!;
    return s;
  };
  const buf = new Uint8Array(8192);
  for (let round = 0; round < 300; round++) {
    const orderId = BigInt(int(2 ** 31)) * 4294967296n + BigInt(int(2 ** 32));
    const legs = Array.from({ length: int(4) }, () => ({
      legId: int(2 ** 32),
      mantissa: r() < 0.2 ? null : BigInt(int(2 ** 40)) - 2n ** 39n,
      fills: Array.from({ length: int(4) }, () => ({ qty: int(2 ** 32), venue: r() < 0.5 ? st.Venue.Lit : st.Venue.Dark })),
      note: text(),
    }));
    const tags = Array.from({ length: int(5) }, () => int(65536));
    const textValue = text();
    const blob = Uint8Array.from({ length: int(20) }, () => int(256));
    const offset = int(16);
    const e = new st.GroupsEncoder().wrap(buf, offset).orderId(orderId);
    const le = e.legs();
    for (const leg of legs) {
      le.next().legId(leg.legId).price().mantissa(leg.mantissa);
      const f = le.fills();
      for (const fill of leg.fills) f.next().qty(fill.qty).venue(fill.venue);
      le.note(leg.note);
    }
    const te = e.tags();
    for (const t of tags) te.next().tag(t);
    e.text(textValue).blob(blob);
    const n = e.encodedLength();

    const d = st.GroupsDecoder.decode(buf, offset, n);
    assert.equal(d.encodedLength(), n);
    // Var data first half of the time: any order works.
    if (round % 2 === 0) {
      assert.equal(d.text, textValue);
      assert.deepEqual(d.blob, blob);
    }
    assert.equal(d.orderId, orderId);
    let i = 0;
    for (const leg of d.legs) {
      const want = legs[i++]!;
      assert.equal(leg.legId, want.legId);
      assert.equal(leg.price.mantissa, want.mantissa);
      if (round % 3 === 0) assert.equal(leg.note, want.note);
      const qtys: [number, number][] = [];
      for (const f of leg.fills) qtys.push([f.qty, f.venue]);
      assert.deepEqual(qtys, want.fills.map((f) => [f.qty, f.venue]));
      assert.equal(leg.note, want.note);
    }
    assert.equal(i, legs.length);
    assert.deepEqual(Array.from(d.tags, (t) => t.tag), tags);
    assert.equal(d.text, textValue);
    assert.deepEqual(d.blob, blob);
    const json = JSON.parse(d.toJson()) as { fields: { legs: { note: string }[]; text: string } };
    assert.equal(json.fields.text, textValue);
    assert.deepEqual(json.fields.legs.map((l) => l.note), legs.map((l) => l.note));
  }
});

test("AsNumber accessors: exact up to 2^53, and the same bytes as the bigint setter", () => {
  const a = new Uint8Array(100);
  const b = new Uint8Array(100);
  new car.CarEncoder().wrap(a).serialNumber(2 ** 53 - 1);
  new car.CarEncoder().wrap(b).serialNumber(2n ** 53n - 1n);
  assert.deepEqual(a, b);
  const d = car.CarDecoder.decode(a, 0, 57);
  assert.equal(d.serialNumberAsNumber(), 2 ** 53 - 1);
  assert.equal(d.serialNumber, 2n ** 53n - 1n);
});

test("64-bit setters: a safe-integer number writes the bytes of its bigint; any other number is valueOutOfRange", () => {
  const a = new Uint8Array(100);
  const b = new Uint8Array(100);
  const unsigned = [0, 1, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, 123456789012345, 2 ** 53 - 1];
  for (const x of unsigned) {
    new car.CarEncoder().wrap(a).serialNumber(x);
    new car.CarEncoder().wrap(b).serialNumber(BigInt(x));
    assert.deepEqual(a, b, `little-endian uint64 ${x}`);
    new be.CarEncoder().wrap(a).serialNumber(x);
    new be.CarEncoder().wrap(b).serialNumber(BigInt(x));
    assert.deepEqual(a, b, `big-endian uint64 ${x}`);
  }
  for (const x of [...unsigned, -1, -(2 ** 32), -(2 ** 32) - 1, -123456789012345, -(2 ** 53 - 1)]) {
    new st.CompositesEncoder().wrap(a).lastPrice().mantissa(x);
    new st.CompositesEncoder().wrap(b).lastPrice().mantissa(BigInt(x));
    assert.deepEqual(a, b, `int64 ${x}`);
  }
  const e = new car.CarEncoder().wrap(a);
  const m = new st.CompositesEncoder().wrap(b).lastPrice();
  const [beforeA, beforeB] = [a.slice(), b.slice()];
  for (const x of [-1, -0.5, 0.5, 1.5, 2 ** 32 + 0.5, 2 ** 53, 2 ** 64, NaN, Infinity, -Infinity]) {
    assert.deepEqual(pick(encodeError(() => e.serialNumber(x))).slice(1), ["fields.serialNumber", "valueOutOfRange"], `uint64 ${x}`);
  }
  for (const x of [0.5, -0.5, -(2 ** 32) - 0.5, 2 ** 53, -(2 ** 53), NaN, Infinity, -Infinity]) {
    assert.deepEqual(pick(encodeError(() => m.mantissa(x))).slice(1), ["fields.lastPrice.mantissa", "valueOutOfRange"], `int64 ${x}`);
  }
  assert.deepEqual(pick(encodeError(() => m.mantissa(2n ** 63n))).slice(1), ["fields.lastPrice.mantissa", "valueOutOfRange"]);
  assert.deepEqual([a, b], [beforeA, beforeB]);
  m.mantissa(null);
  assert.equal(new st.CompositesDecoder().wrap(b).lastPrice.mantissa, null);
});

test("composite members in place: the composite's values, nulls, bytes and errors", () => {
  // Reading: the same values as through the composite's decoder.
  const d = car.CarDecoder.decode(vector("car.jsonl", "car").bytes);
  assert.deepEqual(
    [d.engineCapacity, d.engineNumCylinders, d.engineEfficiency],
    [d.engine.capacity, d.engine.numCylinders, d.engine.efficiency],
  );
  assert.deepEqual([d.engineCapacity, d.engineNumCylinders, d.engineEfficiency], [2000, 4, 35]);

  // Writing: the same bytes as through the composite's encoder, little- and big-endian.
  const [a, b] = [new Uint8Array(200), new Uint8Array(200)];
  new car.CarEncoder().wrap(a).engine().capacity(2000).numCylinders(4).efficiency(35);
  new car.CarEncoder().wrap(b).engineCapacity(2000).engineNumCylinders(4).engineEfficiency(35);
  assert.deepEqual(a, b);
  new be.CarEncoder().wrap(a).engine().capacity(0x1234).numCylinders(6);
  new be.CarEncoder().wrap(b).engineCapacity(0x1234).engineNumCylinders(6);
  assert.deepEqual(a, b);
  assert.equal(new be.CarDecoder().wrap(b).engineCapacity, 0x1234);

  // Optional members: null both ways; 64-bit ones as bigint and as number.
  const c = new st.CompositesEncoder().wrap(a);
  c.shapeId(7).shapeWeight(null).lastPriceMantissa(-123456789012345);
  const cd = new st.CompositesDecoder().wrap(a);
  assert.deepEqual([cd.shapeId, cd.shapeWeight, cd.lastPriceMantissa], [7, null, -123456789012345n]);
  assert.deepEqual([cd.shape.id, cd.shape.weight, cd.lastPrice.mantissa], [7, null, -123456789012345n]);
  assert.equal(cd.lastPriceMantissaAsNumber(), -123456789012345);
  c.lastPriceMantissa(null).shapeWeight(9);
  assert.deepEqual([cd.lastPriceMantissa, cd.lastPriceMantissaAsNumber(), cd.lastPrice.mantissa], [null, null, null]);
  assert.equal(cd.shapeWeight, 9);

  // In group entries, and the errors: the composite's path and offset, nothing written.
  const g = new st.GroupsEncoder().wrap(a).orderId(1);
  const legs = g.legs();
  legs.next().legId(1).priceMantissa(5n);
  legs.fills();
  legs.note("");
  legs.next().legId(2).price().mantissa(6);
  legs.fills();
  legs.note("");
  g.tags();
  const prices: (bigint | null)[] = [];
  for (const leg of new st.GroupsDecoder().wrap(a).legs) prices.push(leg.priceMantissa, leg.price.mantissa);
  assert.deepEqual(prices, [5n, 5n, 6n, 6n]);
  const e = new car.CarEncoder().wrap(new Uint8Array(200));
  const before = e.encodedLength();
  for (const x of [101, -1, 1.5]) {
    const flat = pick(encodeError(() => e.engineEfficiency(x)));
    assert.deepEqual(flat, pick(encodeError(() => e.engine().efficiency(x))));
    assert.deepEqual(flat.slice(1), ["fields.engine.efficiency", "valueOutOfRange"]);
  }
  assert.deepEqual(pick(encodeError(() => c.lastPriceMantissa(2 ** 53))), pick(encodeError(() => c.lastPrice().mantissa(2 ** 53))));
  assert.equal(e.encodedLength(), before);
});
