package dev.sable.bench;

import static dev.sable.bench.MarketDataMessage.*;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.sable.bench.proto.MarketDataProtos.MarketDataIncrementalRefreshTrades;
import dev.sable.bench.proto.MarketDataProtos.MatchEventIndicator;
import dev.sable.bench.proto.MarketDataProtos.MdEntryType;
import dev.sable.bench.proto.MarketDataProtos.MdUpdateAction;
import dev.sable.bench.proto.MarketDataProtos.Side;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * MarketDataIncrementalRefreshTrades through protobuf-java, tuned as ProtobufCar is: one reused
 * builder, a preallocated output byte[], parsing from a byte[] range.
 */
final class ProtobufMarketData
{
    final MarketDataIncrementalRefreshTrades.Builder builder = MarketDataIncrementalRefreshTrades.newBuilder();

    /** Encodes the message into buffer at offset 0; returns its length. */
    int encode(final byte[] buffer)
    {
        final MarketDataIncrementalRefreshTrades.Builder marketData = builder.clear();
        marketData.setTransactTime(TRANSACT_TIME)
            .setEventTimeDelta(EVENT_TIME_DELTA)
            .setMatchEventIndicator(MatchEventIndicator.END_EVENT);
        addEntry(marketData, Side.BUY);
        addEntry(marketData, Side.SELL);

        final MarketDataIncrementalRefreshTrades message = marketData.build();
        final CodedOutputStream out = CodedOutputStream.newInstance(buffer);
        try
        {
            message.writeTo(out);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return out.getTotalBytesWritten();
    }

    private static void addEntry(final MarketDataIncrementalRefreshTrades.Builder marketData, final Side side)
    {
        marketData.addMdIncGrpBuilder()
            .setTradeId(TRADE_ID)
            .setSecurityId(SECURITY_ID)
            .setMdEntryPxMantissa(MD_ENTRY_PX_MANTISSA)
            .setMdEntrySizeMantissa(MD_ENTRY_SIZE_MANTISSA)
            .setNumberOfOrders(NUMBER_OF_ORDERS)
            .setMdUpdateAction(MdUpdateAction.NEW)
            .setRptSeq(RPT_SEQ)
            .setAggressorSide(side)
            .setMdEntryType(MdEntryType.TRADE);
    }

    /** Parses the message from buffer[0, length), reading every field; returns their sum. */
    static long decode(final byte[] buffer, final int length)
    {
        final MarketDataIncrementalRefreshTrades marketData;
        try
        {
            marketData = MarketDataIncrementalRefreshTrades.parser().parseFrom(buffer, 0, length);
        }
        catch (final InvalidProtocolBufferException ex)
        {
            throw new IllegalStateException(ex);
        }

        long sum = marketData.getTransactTime();
        sum += marketData.getEventTimeDelta();
        sum += marketData.getMatchEventIndicatorValue();
        for (int i = 0, size = marketData.getMdIncGrpCount(); i < size; i++)
        {
            final MarketDataIncrementalRefreshTrades.MdIncGrp entry = marketData.getMdIncGrp(i);
            sum += entry.getTradeId();
            sum += entry.getSecurityId();
            sum += entry.getMdEntryPxMantissa();
            sum += entry.getMdEntrySizeMantissa();
            sum += entry.getNumberOfOrders();
            sum += entry.getMdUpdateActionValue();
            sum += entry.getRptSeq();
            sum += entry.getAggressorSideValue();
            sum += entry.getMdEntryTypeValue();
        }
        return sum;
    }
}
