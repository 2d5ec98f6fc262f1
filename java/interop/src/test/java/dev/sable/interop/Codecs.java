package dev.sable.interop;

import java.util.List;

/** The codecs of each message type the tests run: the reference's first, then Sable's. */
final class Codecs
{
    private Codecs()
    {
    }

    static List<MessageCodec<ExampleCar>> baseline()
    {
        return List.of(new ReferenceBaseline());
    }

    static List<MessageCodec<ExampleCar>> extension()
    {
        return List.of(new ReferenceExtension());
    }

    static List<MessageCodec<BenchCar>> benchCar()
    {
        return List.of(new ReferenceBenchCar());
    }

    static List<MessageCodec<MarketData>> marketData()
    {
        return List.of(new ReferenceMarketData());
    }
}
