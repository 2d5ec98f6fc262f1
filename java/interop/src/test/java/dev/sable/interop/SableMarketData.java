package dev.sable.interop;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import sable.benchfix.MDUpdateAction;
import sable.benchfix.MarketDataIncrementalRefreshTradesDecoder;
import sable.benchfix.MarketDataIncrementalRefreshTradesEncoder;
import sable.benchfix.MatchEventIndicator;
import sable.benchfix.MessageHeaderDecoder;
import sable.benchfix.MessageHeaderEncoder;
import sable.benchfix.Side;

/** Sable's codec (MemorySegment flavour, over heap or off-heap memory) of MarketDataIncrementalRefreshTrades. */
final class SableMarketData implements MessageCodec<MarketData>
{
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final MarketDataIncrementalRefreshTradesEncoder encoder = new MarketDataIncrementalRefreshTradesEncoder();
    private final MarketDataIncrementalRefreshTradesDecoder decoder = new MarketDataIncrementalRefreshTradesDecoder();

    private final boolean offHeap;

    SableMarketData(final boolean offHeap)
    {
        this.offHeap = offHeap;
    }

    @Override
    public String name()
    {
        return "sable" + (offHeap ? " off-heap" : " heap");
    }

    @Override
    public byte[] encode(final MarketData value)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment segment = offHeap ? arena.allocate(4096) : MemorySegment.ofArray(new byte[4096]);
            final int length = encode(value, segment);
            return segment.asSlice(0, length).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        }
    }

    private int encode(final MarketData value, final MemorySegment buffer)
    {
        final MarketDataIncrementalRefreshTradesEncoder marketData =
            encoder.wrapAndApplyHeader(buffer, 0, headerEncoder)
                .transactTime(value.transactTime())
                .eventTimeDelta(value.eventTimeDelta())
                .matchEventIndicator(MatchEventIndicator.get(value.matchEventIndicator()));
        final MarketDataIncrementalRefreshTradesEncoder.MdIncGrpEncoder entries =
            marketData.mdIncGrpCount(value.entries().size());
        for (final MarketData.Entry e : value.entries())
        {
            entries.next().tradeId(e.tradeId()).securityId(e.securityId());
            entries.mdEntryPx().mantissa(e.mdEntryPxMantissa());
            entries.mdEntrySize().mantissa(e.mdEntrySizeMantissa());
            entries.numberOfOrders(e.numberOfOrders())
                .mdUpdateAction(MDUpdateAction.get(e.mdUpdateAction()))
                .rptSeq(e.rptSeq())
                .aggressorSide(Side.get(e.aggressorSide()));
        }
        return (int)(MessageHeaderEncoder.ENCODED_LENGTH + marketData.encodedLength());
    }

    @Override
    public MarketData decode(final byte[] bytes)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment segment = offHeap ?
                arena.allocate(bytes.length + 1L).copyFrom(MemorySegment.ofArray(bytes)) : MemorySegment.ofArray(bytes);
            return decode(segment);
        }
    }

    private MarketData decode(final MemorySegment buffer)
    {
        headerDecoder.wrap(buffer, 0);
        final MarketDataIncrementalRefreshTradesDecoder marketData = decoder.wrap(
            buffer, MessageHeaderDecoder.ENCODED_LENGTH, headerDecoder.blockLength(), headerDecoder.version());
        final long transactTime = marketData.transactTime();
        final int eventTimeDelta = marketData.eventTimeDelta();
        final byte matchEventIndicator = marketData.matchEventIndicatorRaw();
        final List<MarketData.Entry> entries = new ArrayList<>();
        for (final MarketDataIncrementalRefreshTradesDecoder.MdIncGrpDecoder e : marketData.mdIncGrp())
        {
            entries.add(new MarketData.Entry(
                e.tradeId(), e.securityId(),
                e.mdEntryPx().mantissa(), e.mdEntryPx().exponent(),
                e.mdEntrySize().mantissa(), e.mdEntrySize().exponent(),
                e.numberOfOrders(), e.mdUpdateActionRaw(), e.rptSeq(), e.aggressorSideRaw(),
                e.mdEntryType().value()));
        }
        return new MarketData(transactTime, eventTimeDelta, matchEventIndicator, entries);
    }
}
