package dev.sable.interop;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import reference.benchfix.MDUpdateAction;
import reference.benchfix.MarketDataIncrementalRefreshTradesDecoder;
import reference.benchfix.MarketDataIncrementalRefreshTradesEncoder;
import reference.benchfix.MatchEventIndicator;
import reference.benchfix.MessageHeaderDecoder;
import reference.benchfix.MessageHeaderEncoder;
import reference.benchfix.Side;

/** The reference implementation's codec of MarketDataIncrementalRefreshTrades. */
final class ReferenceMarketData implements MessageCodec<MarketData>
{
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final MarketDataIncrementalRefreshTradesEncoder encoder = new MarketDataIncrementalRefreshTradesEncoder();
    private final MarketDataIncrementalRefreshTradesDecoder decoder = new MarketDataIncrementalRefreshTradesDecoder();

    @Override
    public String name()
    {
        return "reference";
    }

    @Override
    public byte[] encode(final MarketData value)
    {
        final byte[] bytes = new byte[4096];
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
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
        return Arrays.copyOf(bytes, MessageHeaderEncoder.ENCODED_LENGTH + marketData.encodedLength());
    }

    @Override
    public MarketData decode(final byte[] bytes)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
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
