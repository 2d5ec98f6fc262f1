package dev.sable.interop.alloc;

/**
 *
 * The MarketDataIncrementalRefreshTrades message every MarketData benchmark encodes and decodes,
 * with the values of the reference implementation's own MarketData benchmark: two entries that
 * differ only in the aggressor side.
 *
 * <p>A copy of java/benchmarks' class of this name (the benchmarks are a module of their own).
 */
final class MarketDataMessage
{
    static final long TRANSACT_TIME = 1234L;
    static final int EVENT_TIME_DELTA = 987;
    static final long TRADE_ID = 1234L;
    static final long SECURITY_ID = 56789L;
    static final long MD_ENTRY_PX_MANTISSA = 50;
    static final int MD_ENTRY_SIZE_MANTISSA = 10;
    static final int NUMBER_OF_ORDERS = 1;
    static final short RPT_SEQ = 1;

    private MarketDataMessage()
    {
    }
}
