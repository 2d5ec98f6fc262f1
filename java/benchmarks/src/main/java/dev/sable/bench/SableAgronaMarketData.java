package dev.sable.bench;

import static dev.sable.bench.MarketDataMessage.*;

import org.agrona.concurrent.UnsafeBuffer;
import sableagrona.benchfix.MDUpdateAction;
import sableagrona.benchfix.MarketDataIncrementalRefreshTradesDecoder;
import sableagrona.benchfix.MarketDataIncrementalRefreshTradesEncoder;
import sableagrona.benchfix.MatchEventIndicator;
import sableagrona.benchfix.MessageHeaderDecoder;
import sableagrona.benchfix.MessageHeaderEncoder;
import sableagrona.benchfix.Side;

/**
 * MarketDataIncrementalRefreshTrades through Sable's generated Java codecs (over a
 * UnsafeBuffer), Agrona flavour.
 */
final class SableAgronaMarketData
{
    final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    final MarketDataIncrementalRefreshTradesEncoder encoder = new MarketDataIncrementalRefreshTradesEncoder();
    final MarketDataIncrementalRefreshTradesDecoder decoder = new MarketDataIncrementalRefreshTradesDecoder();

    /** Encodes the message at offset 0; returns its length, header included. */
    int encode(final UnsafeBuffer buffer)
    {
        final MarketDataIncrementalRefreshTradesEncoder marketData = encoder;
        marketData.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .transactTime(TRANSACT_TIME)
            .eventTimeDelta(EVENT_TIME_DELTA)
            .matchEventIndicator(MatchEventIndicator.END_EVENT);

        final MarketDataIncrementalRefreshTradesEncoder.MdIncGrpEncoder entries = marketData.mdIncGrpCount(2);
        entries.next()
            .tradeId(TRADE_ID)
            .securityId(SECURITY_ID);
        entries.mdEntryPx().mantissa(MD_ENTRY_PX_MANTISSA);
        entries.mdEntrySize().mantissa(MD_ENTRY_SIZE_MANTISSA);
        entries.numberOfOrders(NUMBER_OF_ORDERS)
            .mdUpdateAction(MDUpdateAction.NEW)
            .rptSeq(RPT_SEQ)
            .aggressorSide(Side.BUY);

        entries.next()
            .tradeId(TRADE_ID)
            .securityId(SECURITY_ID);
        entries.mdEntryPx().mantissa(MD_ENTRY_PX_MANTISSA);
        entries.mdEntrySize().mantissa(MD_ENTRY_SIZE_MANTISSA);
        entries.numberOfOrders(NUMBER_OF_ORDERS)
            .mdUpdateAction(MDUpdateAction.NEW)
            .rptSeq(RPT_SEQ)
            .aggressorSide(Side.SELL);
        return MessageHeaderEncoder.ENCODED_LENGTH + marketData.encodedLength();
    }

    /** Decodes the message at offset 0, reading every field; returns the sum of their values. */
    long decode(final UnsafeBuffer buffer)
    {
        final MessageHeaderDecoder header = headerDecoder.wrap(buffer, 0);
        final MarketDataIncrementalRefreshTradesDecoder marketData = decoder;
        marketData.wrap(buffer, MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(), header.version());

        long sum = header.templateId();
        sum += marketData.transactTime();
        sum += marketData.eventTimeDelta();
        sum += marketData.matchEventIndicator().value();
        for (final MarketDataIncrementalRefreshTradesDecoder.MdIncGrpDecoder entry : marketData.mdIncGrp())
        {
            sum += entry.tradeId();
            sum += entry.securityId();
            sum += entry.mdEntryPx().mantissa();
            sum += entry.mdEntryPx().exponent();
            sum += entry.mdEntrySize().mantissa();
            sum += entry.numberOfOrders();
            sum += entry.mdUpdateAction().value();
            sum += entry.rptSeq();
            sum += entry.aggressorSide().value();
            sum += entry.mdEntryType().value();
        }
        return sum;
    }
}
