package dev.sable.interop;

import java.util.List;

/**
 * Every field of a MarketDataIncrementalRefreshTrades of bench-fix-message-samples.xml, enums
 * raw, the constant exponents and MdEntryType included (as the decoders read them).
 */
record MarketData(
    long transactTime,
    int eventTimeDelta,
    byte matchEventIndicator,
    List<Entry> entries)
{
    record Entry(
        long tradeId,
        long securityId,
        long mdEntryPxMantissa,
        byte mdEntryPxExponent,
        int mdEntrySizeMantissa,
        byte mdEntrySizeExponent,
        int numberOfOrders,
        short mdUpdateAction,
        short rptSeq,
        byte aggressorSide,
        byte mdEntryType)
    {
    }
}
