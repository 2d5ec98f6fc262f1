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
        return List.of(new ReferenceBaseline(), new SableBaseline(false), new SableBaseline(true));
    }

    static List<MessageCodec<ExampleCar>> extension()
    {
        return List.of(new ReferenceExtension(), new SableExtension(false), new SableExtension(true));
    }

    static List<MessageCodec<BenchCar>> benchCar()
    {
        return List.of(new ReferenceBenchCar(), new SableBenchCar(false), new SableBenchCar(true));
    }

    static List<MessageCodec<MarketData>> marketData()
    {
        return List.of(new ReferenceMarketData(), new SableMarketData(false), new SableMarketData(true));
    }
}
