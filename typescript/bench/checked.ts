// The minimal flyweight (minimal.ts) with the codec contract's checks, each made where it costs
// least: `wrap` checks the header (schema and template ids, version, block length, the block
// within the message), a group's opening checks its dimensions and that all its entries fit (so
// that `next()` is an index test and the getters read unchecked), and the end of a group tells
// the message where the group ends; encoders check the room at `wrap` and at each entry, and the
// count's limit; setters check every value's range. State kept to what that needs. Not a codec:
// it reads and writes the benchmark's MarketData only, and everything the contract handles on a
// general path (an older writer's block, a group that does not fit, errors naming fields and
// offsets) throws `unsupported` here. A measuring stick for bench.ts: what the contract's checks
// add to the least flyweight (docs/benchmarks.md, "Codec shapes on V8").

function unsupported(what: string): never {
  throw new Error(`not handled by this measuring stick: ${what}`);
}

const DONE: IteratorResult<never> = { value: undefined, done: true };
const MAX_SAFE = 9007199254740991;

function viewOf(b: Uint8Array): DataView {
  return new DataView(b.buffer, b.byteOffset, b.byteLength);
}

/** Reads the entries of group `mdIncGrp`: iterate it for its entries (this same object). */
export class CheckedEntryDecoder implements IterableIterator<CheckedEntryDecoder> {
  private _v = viewOf(new Uint8Array(8));
  private _bo = 0;
  private _index = 0;
  private _count = 0;
  private _entryLength = 0;
  private _start = 0;
  private _parent: CheckedDecoder | null = null;
  private readonly _more: IteratorResult<CheckedEntryDecoder> = { value: this, done: false };

  /** @internal Moves to the group whose header is at `pos`. */
  _in(parent: CheckedDecoder, pos: number): this {
    const v = parent._v;
    if (pos + 4 > parent._end) unsupported("a cut group");
    const entryLength = v.getUint16(pos, true);
    const count = v.getUint16(pos + 2, true);
    if (pos + 4 + count * entryLength > parent._end || entryLength < 33 || parent._version < 1) unsupported("a cut group, or an older writer's entries");
    this._v = v;
    this._parent = parent;
    this._entryLength = entryLength;
    this._count = count;
    this._start = pos;
    this._bo = pos + 4 - entryLength;
    this._index = -1;
    return this;
  }

  [Symbol.iterator](): this {
    return this;
  }

  next(): IteratorResult<CheckedEntryDecoder> {
    if (++this._index < this._count) {
      this._bo += this._entryLength;
      return this._more;
    }
    const p = this._parent!;
    if (p._next === this._start) p._next = this._bo + this._entryLength;
    return DONE;
  }

  tradeIdAsNumber(): number {
    return this._v.getUint32(this._bo + 4, true) * 4294967296 + this._v.getUint32(this._bo, true);
  }
  securityIdAsNumber(): number {
    return this._v.getUint32(this._bo + 12, true) * 4294967296 + this._v.getUint32(this._bo + 8, true);
  }
  mdEntryPxMantissaAsNumber(): number {
    return this._v.getInt32(this._bo + 20, true) * 4294967296 + this._v.getUint32(this._bo + 16, true);
  }
  get mdEntrySizeMantissa(): number {
    return this._v.getInt32(this._bo + 24, true);
  }
  get numberOfOrders(): number {
    return this._v.getUint16(this._bo + 28, true);
  }
  get mdUpdateAction(): number {
    return this._v.getUint8(this._bo + 30);
  }
  get rptSeq(): number {
    return this._v.getUint8(this._bo + 31);
  }
  get aggressorSide(): number {
    return this._v.getUint8(this._bo + 32);
  }
}

/** Reads a MarketDataIncrementalRefreshTrades message. */
export class CheckedDecoder {
  private _b: Uint8Array = new Uint8Array(8);
  /** @internal */
  _v = viewOf(this._b);
  private _bo = 0;
  /** @internal */
  _end = 0;
  /** @internal Where the next group or var data starts, once known. */
  _next = 0;
  /** @internal */
  _version = 0;
  private readonly _group = new CheckedEntryDecoder();

  wrap(b: Uint8Array, offset = 0, length?: number): this {
    const v = b === this._b ? this._v : viewOf(b);
    const end = length === undefined ? b.length : Math.min(b.length, offset + length);
    const at = offset + 8;
    if (at > end || v.getUint16(offset + 4, true) !== 1 || v.getUint16(offset + 2, true) !== 2) unsupported("another message, or a cut header");
    const blockLength = v.getUint16(offset, true);
    const version = v.getUint16(offset + 6, true);
    if (blockLength < 11 || version < 1 || at + blockLength > end) unsupported("an older writer's block, or a cut one");
    this._b = b;
    this._v = v;
    this._bo = at;
    this._end = end;
    this._version = version;
    this._next = at + blockLength;
    return this;
  }

  transactTimeAsNumber(): number {
    return this._v.getUint32(this._bo + 4, true) * 4294967296 + this._v.getUint32(this._bo, true);
  }
  get eventTimeDelta(): number {
    return this._v.getUint16(this._bo + 8, true);
  }
  get matchEventIndicator(): number {
    return this._v.getUint8(this._bo + 10);
  }
  get mdIncGrp(): CheckedEntryDecoder {
    return this._group._in(this, this._next);
  }
}

/** Writes the entries of group `mdIncGrp`. */
export class CheckedEntryEncoder {
  private _v = viewOf(new Uint8Array(8));
  private _bo = 0;
  private _count = 0;
  private _dimAt = 0;
  private _end = 0;
  /** Where the next entry goes: the message's encoded length once the group is the last. */
  limit = 0;

  /** @internal Starts the group at `pos`. */
  _in(v: DataView, pos: number, end: number): this {
    if (pos + 4 > end) unsupported("a buffer too small");
    this._v = v;
    this._end = end;
    v.setUint16(pos, 33, true);
    v.setUint16(pos + 2, 0, true);
    this._dimAt = pos;
    this._count = 0;
    this.limit = pos + 4;
    return this;
  }

  next(): this {
    const at = this.limit;
    if (this._count >= 65535 || at + 33 > this._end) unsupported("a buffer too small");
    this._bo = at;
    this.limit = at + 33;
    this._v.setUint16(this._dimAt + 2, ++this._count, true);
    return this;
  }

  tradeId(x: number): this {
    if (!(x >= 0 && x <= MAX_SAFE)) throw new RangeError("tradeId");
    const lo = x >>> 0;
    this._v.setUint32(this._bo, lo, true);
    this._v.setUint32(this._bo + 4, (x - lo) / 4294967296, true);
    return this;
  }
  securityId(x: number): this {
    if (!(x >= 0 && x <= MAX_SAFE)) throw new RangeError("securityId");
    const lo = x >>> 0;
    this._v.setUint32(this._bo + 8, lo, true);
    this._v.setUint32(this._bo + 12, (x - lo) / 4294967296, true);
    return this;
  }
  mdEntryPxMantissa(x: number): this {
    if (!(Math.abs(x) <= MAX_SAFE)) throw new RangeError("mdEntryPx");
    this._v.setUint32(this._bo + 16, x >>> 0, true);
    this._v.setInt32(this._bo + 20, Math.floor(x / 4294967296), true);
    return this;
  }
  mdEntrySizeMantissa(x: number): this {
    if (!((x | 0) === x)) throw new RangeError("mdEntrySize");
    this._v.setInt32(this._bo + 24, x, true);
    return this;
  }
  numberOfOrders(x: number): this {
    if (!((x << 16) >>> 16 === x)) throw new RangeError("numberOfOrders");
    this._v.setUint16(this._bo + 28, x, true);
    return this;
  }
  mdUpdateAction(x: number): this {
    if (!((x << 24) >>> 24 === x)) throw new RangeError("mdUpdateAction");
    this._v.setUint8(this._bo + 30, x);
    return this;
  }
  rptSeq(x: number): this {
    if (!((x << 24) >>> 24 === x)) throw new RangeError("rptSeq");
    this._v.setUint8(this._bo + 31, x);
    return this;
  }
  aggressorSide(x: number): this {
    if (!((x << 24) >>> 24 === x)) throw new RangeError("aggressorSide");
    this._v.setUint8(this._bo + 32, x);
    return this;
  }
}

/** Writes a MarketDataIncrementalRefreshTrades message (header, then body). */
export class CheckedEncoder {
  private _b: Uint8Array = new Uint8Array(8);
  private _v = viewOf(this._b);
  private _bo = 0;
  private readonly _group = new CheckedEntryEncoder();

  wrap(b: Uint8Array, offset = 0): this {
    if (offset < 0 || offset + 19 > b.length) unsupported("a buffer too small");
    if (b !== this._b) {
      this._b = b;
      this._v = viewOf(b);
    }
    const v = this._v;
    v.setUint16(offset, 11, true);
    v.setUint16(offset + 2, 2, true);
    v.setUint16(offset + 4, 1, true);
    v.setUint16(offset + 6, 1, true);
    this._bo = offset + 8;
    return this;
  }

  transactTime(x: number): this {
    if (!(x >= 0 && x <= MAX_SAFE)) throw new RangeError("transactTime");
    const lo = x >>> 0;
    this._v.setUint32(this._bo, lo, true);
    this._v.setUint32(this._bo + 4, (x - lo) / 4294967296, true);
    return this;
  }
  eventTimeDelta(x: number): this {
    if (!((x << 16) >>> 16 === x)) throw new RangeError("eventTimeDelta");
    this._v.setUint16(this._bo + 8, x, true);
    return this;
  }
  matchEventIndicator(x: number): this {
    if (!((x << 24) >>> 24 === x)) throw new RangeError("matchEventIndicator");
    this._v.setUint8(this._bo + 10, x);
    return this;
  }
  mdIncGrp(): CheckedEntryEncoder {
    return this._group._in(this._v, this._bo + 11, this._b.length);
  }
}
