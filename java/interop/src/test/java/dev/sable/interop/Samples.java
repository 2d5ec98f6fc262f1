package dev.sable.interop;

import java.util.List;

/**
 * The messages the interop tests write and read: the reference samples' values, edge values
 * (each type's largest and smallest values, null values, NaN and signed zero, text shorter than
 * its char array, non-ASCII UTF-8), empty groups and empty var data.
 */
final class Samples
{
    /** uint64's and uint32's largest values that are not their null values, as Java stores them. */
    static final long UINT64_MAX = 0xFFFF_FFFF_FFFF_FFFEL;
    static final long UINT32_MAX = 0xFFFF_FFFEL;
    static final int UINT16_MAX = 0xFFFE;
    static final short UINT8_MAX = 0xFE;

    private Samples()
    {
    }

    private static ExampleCar.Engine engine(
        final int capacity, final short cylinders, final String code, final int efficiency, final int booster,
        final char boostType, final int horsePower)
    {
        return new ExampleCar.Engine(capacity, cylinders, 9000, code, "Petrol", (byte)efficiency, (short)booster,
            (byte)boostType, (short)horsePower);
    }

    private static List<ExampleCar.PerformanceFigure> examplePerformance()
    {
        return List.of(
            new ExampleCar.PerformanceFigure((short)95, List.of(
                new ExampleCar.Acceleration(30, 4.0f),
                new ExampleCar.Acceleration(60, 7.5f),
                new ExampleCar.Acceleration(100, 12.2f))),
            new ExampleCar.PerformanceFigure((short)99, List.of(
                new ExampleCar.Acceleration(30, 3.8f),
                new ExampleCar.Acceleration(60, 7.1f),
                new ExampleCar.Acceleration(100, 11.8f))));
    }

    /** example-schema.xml's Car with the values of the reference's sample (with extras). */
    static ExampleCar baselineTypical()
    {
        return new ExampleCar(1234, 2013, (short)1, (byte)'A', List.of(0L, 1L, 2L, 3L, 4L), "abcdef", (short)6,
            (byte)'C', engine(2000, (short)4, "123", 35, 1, 'N', 200), null, null,
            List.of(
                new ExampleCar.FuelFigure(30, 35.9f, "Urban Cycle"),
                new ExampleCar.FuelFigure(55, 49.0f, "Combined Cycle"),
                new ExampleCar.FuelFigure(75, 40.0f, "Highway Cycle")),
            examplePerformance(), "Honda", "Civic VTi", "abcdef");
    }

    /** Largest values, empty groups, empty var data, short char arrays. */
    static ExampleCar baselineMax()
    {
        return new ExampleCar(UINT64_MAX, UINT16_MAX, (short)0, (byte)'C',
            List.of(UINT32_MAX, 0L, 1L, 0x8000_0000L, UINT32_MAX), "ab", (short)7, (byte)'C',
            engine(UINT16_MAX, UINT8_MAX, "", 100, 0, 'K', UINT8_MAX), null, null,
            List.of(), List.of(), "", "", "");
    }

    /** Smallest values, special floats, empty var data inside groups, an empty nested group, UTF-8. */
    static ExampleCar baselineSpecial()
    {
        return new ExampleCar(0, 0, (short)1, (byte)'B', List.of(0L, 0L, 0L, 0L, 0L), "", (short)0, (byte)'C',
            engine(0, (short)0, "XYZ", 0, 1, 'T', 0), null, null,
            List.of(
                new ExampleCar.FuelFigure(0, Float.NaN, ""),
                new ExampleCar.FuelFigure(1, -0.0f, "x"),
                new ExampleCar.FuelFigure(2, Float.MAX_VALUE, ""),
                new ExampleCar.FuelFigure(3, Float.MIN_VALUE, "Ünïcödé €"),
                new ExampleCar.FuelFigure(4, Float.NEGATIVE_INFINITY, "")),
            List.of(
                new ExampleCar.PerformanceFigure((short)90, List.of()),
                new ExampleCar.PerformanceFigure((short)110, List.of(new ExampleCar.Acceleration(UINT16_MAX, -1.5f)))),
            "Škoda", "", "ключ");
    }

    /** example-extension-schema.xml's Car: the baseline's sample with the version 1 fields set. */
    static ExampleCar extensionTypical()
    {
        return new ExampleCar(1234, 2013, (short)1, (byte)'A', List.of(0L, 1L, 2L, 3L), "abcdef", (short)6,
            (byte)'C', engine(2000, (short)4, "123", 35, 1, 'N', 200), List.of(7L, 3L), (short)5,
            List.of(
                new ExampleCar.FuelFigure(30, 35.9f, "Urban Cycle"),
                new ExampleCar.FuelFigure(55, 49.0f, "Combined Cycle"),
                new ExampleCar.FuelFigure(75, 40.0f, "Highway Cycle")),
            examplePerformance(), "Honda", "Civic VTi", "abcdef");
    }

    /** The optional fields at their null values; largest values; empty groups and var data. */
    static ExampleCar extensionNulls()
    {
        return new ExampleCar(UINT64_MAX, UINT16_MAX, (short)0, (byte)'B',
            List.of(UINT32_MAX, 0L, 1L, UINT32_MAX), "abc", (short)5, (byte)'C',
            engine(UINT16_MAX, UINT8_MAX, "Z", 100, 0, 'S', UINT8_MAX), List.of(Long.MIN_VALUE, Long.MIN_VALUE),
            (short)255, List.of(), List.of(), "", "", "");
    }

    /** Extreme values of the optional fields (not null), empty var data in groups. */
    static ExampleCar extensionExtremes()
    {
        return new ExampleCar(0, 0, (short)1, (byte)'C', List.of(0L, 0L, 0L, 0L), "", (short)0, (byte)'C',
            engine(1, (short)1, "abc", 0, 1, 'K', 1), List.of(Long.MAX_VALUE, Long.MIN_VALUE + 1), UINT8_MAX,
            List.of(new ExampleCar.FuelFigure(UINT16_MAX, Float.NaN, ""), new ExampleCar.FuelFigure(0, -0.0f, "")),
            List.of(new ExampleCar.PerformanceFigure((short)100, List.of())),
            "Ünïcödé €", "M", "");
    }

    private static List<BenchCar.PerformanceFigure> benchPerformance()
    {
        return List.of(
            new BenchCar.PerformanceFigure((short)95, List.of(
                new BenchCar.Acceleration(30, 4.0f),
                new BenchCar.Acceleration(60, 7.5f),
                new BenchCar.Acceleration(100, 12.2f))),
            new BenchCar.PerformanceFigure((short)99, List.of(
                new BenchCar.Acceleration(30, 3.8f),
                new BenchCar.Acceleration(60, 7.1f),
                new BenchCar.Acceleration(100, 11.8f))));
    }

    /** bench-car.xml's Car as the reference's Car benchmark writes it. */
    static BenchCar benchCarTypical()
    {
        return new BenchCar(12345, 2005, (short)1, (byte)'A', List.of(0, 1, 2, 3, 4), "abcdef", (short)3,
            4200, (short)8, 9000, "abc", "Petrol",
            List.of(new BenchCar.FuelFigure(30, 35.9f), new BenchCar.FuelFigure(55, 49.0f),
                new BenchCar.FuelFigure(75, 40.0f)),
            benchPerformance(), "MANUFACTURER", "MODEL");
    }

    /** Largest and smallest values, empty groups and var data, short char arrays. */
    static BenchCar benchCarMax()
    {
        return new BenchCar(UINT32_MAX, UINT16_MAX, (short)0, (byte)'C',
            List.of(Integer.MAX_VALUE, Integer.MIN_VALUE + 1, -1, 0, Integer.MIN_VALUE), "a", (short)7,
            UINT16_MAX, UINT8_MAX, 9000, "", "Petrol", List.of(), List.of(), "", "");
    }

    /** Special floats, an empty nested group, ISO-8859-1 text beyond ASCII. */
    static BenchCar benchCarSpecial()
    {
        return new BenchCar(0, 0, (short)1, (byte)'B', List.of(0, 0, 0, 0, 0), "", (short)0,
            0, (short)0, 9000, "xyz", "Petrol",
            List.of(new BenchCar.FuelFigure(0, Float.NaN), new BenchCar.FuelFigure(UINT16_MAX, -0.0f),
                new BenchCar.FuelFigure(1, Float.POSITIVE_INFINITY)),
            List.of(new BenchCar.PerformanceFigure(UINT8_MAX, List.of()),
                new BenchCar.PerformanceFigure((short)0, List.of(new BenchCar.Acceleration(0, Float.MIN_VALUE)))),
            "Größe", "é");
    }

    private static MarketData.Entry entry(
        final long tradeId, final long securityId, final long px, final int size, final int orders, final int action,
        final int rptSeq, final char side)
    {
        return new MarketData.Entry(tradeId, securityId, px, (byte)7, size, (byte)0, orders, (short)action,
            (short)rptSeq, (byte)side, (byte)'2');
    }

    /** MarketDataIncrementalRefreshTrades as the reference's MarketData benchmark writes it. */
    static MarketData marketDataTypical()
    {
        return new MarketData(1234L, 987, (byte)'2', List.of(
            entry(1234L, 56789L, 50, 10, 1, 0, 1, '1'),
            entry(1234L, 56789L, 50, 10, 1, 0, 1, '2')));
    }

    /** Largest and smallest values, every update action. */
    static MarketData marketDataExtremes()
    {
        return new MarketData(UINT64_MAX, UINT16_MAX, (byte)'3', List.of(
            entry(UINT64_MAX, 0, Long.MAX_VALUE, Integer.MAX_VALUE, UINT16_MAX, 5, UINT8_MAX, '2'),
            entry(0, UINT64_MAX, Long.MIN_VALUE + 1, Integer.MIN_VALUE + 1, 0, 2, 0, '1'),
            entry(1, 1, -1, -1, 1, 1, 1, '1')));
    }

    /** No entries. */
    static MarketData marketDataEmpty()
    {
        return new MarketData(0, 0, (byte)'0', List.of());
    }
}
