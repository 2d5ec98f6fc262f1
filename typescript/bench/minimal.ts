// The least a flyweight over a DataView can be, for the MarketData benchmark message: state kept
// in the object between calls (view, block offset, group index and count), every access a
// method or getter, iteration by `for...of`, but none of the codec contract's checks beyond the
// DataView baseline's (header, group fits the buffer), no older-writer handling, no error paths
// naming fields. Not a codec: a measuring stick for bench.ts, separating what the flyweight
// shape costs on V8 from what Sable's contract costs (docs/benchmarks.md, "TypeScript codecs").

const DONE: IteratorResult<never> = { value: undefined, done: true };
const MAX_SAFE = 9007199254740991;

function viewOf(b: Uint8Array): DataView {
  return new DataView(b.buffer, b.byteOffset, b.byteLength);
}

/** Reads the entries of group `mdIncGrp`: iterate it for its entries (this same object). */
export class MinimalEntryDecoder implements IterableIterator<MinimalEntryDecoder> {
  private _v = viewOf(new Uint8Array(8));
  private _bo = 0;
  private _index = 0;
  private _count = 0;
  private _entryLength = 0;
  private readonly _more: IteratorResult<MinimalEntryDecoder> = { value: this, done: false };

  /** @internal Moves to the group whose header is at `pos`. */
  _in(v: DataView, pos: number, end: number): this {
    this._v = v;
    this._entryLength = v.getUint16(pos, true);
    this._count = v.getUint16(pos + 2, true);
    if (pos + 4 + this._count * this._entryLength > end) throw new Error("truncated");
    this._bo = pos + 4 - this._entryLength;
    this._index = -1;
    return this;
  }

  [Symbol.iterator](): this {
    return this;
  }

  next(): IteratorResult<MinimalEntryDecoder> {
    if (++this._index < this._count) {
      this._bo += this._entryLength;
      return this._more;
    }
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
export class MinimalDecoder {
  private _b: Uint8Array = new Uint8Array(8);
  private _v = viewOf(this._b);
  private _bo = 0;
  private _blockLength = 0;
  private _end = 0;
  private readonly _group = new MinimalEntryDecoder();

  wrap(b: Uint8Array): this {
    const v = b === this._b ? this._v : viewOf(b);
    if (v.getUint16(4, true) !== 1 || v.getUint16(2, true) !== 2) throw new Error("not MarketData");
    this._b = b;
    this._v = v;
    this._bo = 8;
    this._blockLength = v.getUint16(0, true);
    this._end = b.length;
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
  get mdIncGrp(): MinimalEntryDecoder {
    return this._group._in(this._v, this._bo + this._blockLength, this._end);
  }
}

/** Writes the entries of group `mdIncGrp`. */
export class MinimalEntryEncoder {
  private _v = viewOf(new Uint8Array(8));
  private _bo = 0;
  private _count = 0;
  private _dimAt = 0;
  /** Where the next entry goes: the message's encoded length once the group is the last. */
  limit = 0;

  /** @internal Starts the group at `pos`. */
  _in(v: DataView, pos: number): this {
    this._v = v;
    v.setUint16(pos, 33, true);
    v.setUint16(pos + 2, 0, true);
    this._dimAt = pos;
    this._count = 0;
    this.limit = pos + 4;
    return this;
  }

  next(): this {
    this._bo = this.limit;
    this.limit += 33;
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
export class MinimalEncoder {
  private _b: Uint8Array = new Uint8Array(8);
  private _v = viewOf(this._b);
  private _bo = 0;
  private readonly _group = new MinimalEntryEncoder();

  wrap(b: Uint8Array): this {
    if (b !== this._b) {
      this._b = b;
      this._v = viewOf(b);
    }
    const v = this._v;
    v.setUint16(0, 11, true);
    v.setUint16(2, 2, true);
    v.setUint16(4, 1, true);
    v.setUint16(6, 1, true);
    this._bo = 8;
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
  mdIncGrp(): MinimalEntryEncoder {
    return this._group._in(this._v, this._bo + 11);
  }
}
