// The C# codecs' benchmark (scripts/bench-csharp.sh): Car (bench-car.xml) and MarketData
// (bench-fix-message-samples.xml), the messages of the reference's benchmarks, encoded and
// decoded by Sable's generated codecs and by a hand-written baseline that reads and writes the
// same fields with BinaryPrimitives over the same buffer. Encoders write with statements (SetX,
// MoveNext); the rows car/enc/flu and md/enc/flu time the same messages written fluently.
// Decoders fold every value read into a checksum (rotate and xor), so no read can be dropped.
// Prints ns/op and the ratio Sable/baseline.
//
//   mono bench-mono.dll [seconds per measurement]       (scripts/bench-csharp.sh builds both)
//   dotnet bench-coreclr.dll [seconds per measurement]

using System;
using System.Buffers.Binary;
using System.Diagnostics;
using System.Text;
using Car = Sable.Bench.Car;
using Md = Sable.Bench.Md;

namespace Sable.Bench
{
    public static class Bench
    {
        private static readonly byte[] Manufacturer = Encoding.ASCII.GetBytes("MANUFACTURER");
        private static readonly byte[] ModelName = Encoding.ASCII.GetBytes("MODEL");
        private static readonly byte[] VehicleCode = Encoding.ASCII.GetBytes("abcdef");
        private static readonly byte[] ManufacturerCode = Encoding.ASCII.GetBytes("abc");
        private static readonly ushort[] Speeds = { 30, 55, 75 };
        private static readonly float[] Mpgs = { 35.9f, 49.0f, 40.0f };
        private static readonly byte[] Octanes = { 95, 99 };
        private static readonly ushort[] Mphs = { 30, 60, 100 };
        private static readonly float[][] Seconds = { new[] { 4.0f, 7.5f, 12.2f }, new[] { 3.8f, 7.1f, 11.8f } };

        private static ulong Mix(ulong s, ulong v) => ((s << 5) | (s >> 59)) ^ v;

        // ---- Car, Sable ----

        private static int CarEncodeSable(Span<byte> buffer)
        {
            var car = new Car.CarEncoder(buffer);
            car.SetCode(Car.Model.A);
            car.SetModelYear(2005);
            car.SetSerialNumber(12345);
            car.SetAvailable(Car.BooleanType.T);
            car.SetVehicleCode(VehicleCode);
            for (int i = 0; i < 5; i++)
            {
                car.SetSomeNumbers(i, i);
            }
            car.SetExtras(Car.OptionalExtras.SportsPack | Car.OptionalExtras.SunRoof);
            var engine = car.Engine;
            engine.SetCapacity(4200);
            engine.SetNumCylinders(8);
            engine.SetManufacturerCode(ManufacturerCode);
            var fuel = car.FuelFiguresCount(3);
            for (int i = 0; i < 3; i++)
            {
                fuel.MoveNext();
                fuel.SetSpeed(Speeds[i]);
                fuel.SetMpg(Mpgs[i]);
            }
            var perf = car.PerformanceFiguresCount(2);
            for (int i = 0; i < 2; i++)
            {
                perf.MoveNext();
                perf.SetOctaneRating(Octanes[i]);
                var acc = perf.AccelerationCount(3);
                for (int k = 0; k < 3; k++)
                {
                    acc.MoveNext();
                    acc.SetMph(Mphs[k]);
                    acc.SetSeconds(Seconds[i][k]);
                }
            }
            car.SetManufacturer(Manufacturer);
            car.SetModel(ModelName);
            return car.EncodedLength;
        }

        // The same message with fluent setters (chained; each returns a copy of its encoder).
        private static int CarEncodeFluent(Span<byte> buffer)
        {
            var car = new Car.CarEncoder(buffer);
            car.Code(Car.Model.A).ModelYear(2005).SerialNumber(12345).Available(Car.BooleanType.T).VehicleCode(VehicleCode)
                .SomeNumbers(0, 0).SomeNumbers(1, 1).SomeNumbers(2, 2).SomeNumbers(3, 3).SomeNumbers(4, 4)
                .Extras(Car.OptionalExtras.SportsPack | Car.OptionalExtras.SunRoof);
            car.Engine.Capacity(4200).NumCylinders(8).ManufacturerCode(ManufacturerCode);
            var fuel = car.FuelFiguresCount(3);
            for (int i = 0; i < 3; i++)
            {
                fuel.Next().Speed(Speeds[i]).Mpg(Mpgs[i]);
            }
            var perf = car.PerformanceFiguresCount(2);
            for (int i = 0; i < 2; i++)
            {
                perf.Next().OctaneRating(Octanes[i]);
                var acc = perf.AccelerationCount(3);
                for (int k = 0; k < 3; k++)
                {
                    acc.Next().Mph(Mphs[k]).Seconds(Seconds[i][k]);
                }
            }
            car.Manufacturer(Manufacturer).Model(ModelName);
            return car.EncodedLength;
        }

        private static ulong CarDecodeSable(ReadOnlySpan<byte> buffer)
        {
            var car = new Car.CarDecoder(buffer);
            ulong s = 0;
            s = Mix(s, car.SerialNumber);
            s = Mix(s, car.ModelYear);
            s = Mix(s, (ulong)car.Available);
            s = Mix(s, (ulong)car.Code);
            for (int i = 0; i < Car.CarDecoder.SomeNumbersLength; i++)
            {
                s = Mix(s, (ulong)car.SomeNumbers(i));
            }
            foreach (byte b in car.VehicleCodeBytes)
            {
                s = Mix(s, b);
            }
            var extras = car.Extras;
            s = Mix(s, (extras & Car.OptionalExtras.CruiseControl) != 0 ? 1UL : 0UL);
            s = Mix(s, (extras & Car.OptionalExtras.SportsPack) != 0 ? 1UL : 0UL);
            s = Mix(s, (extras & Car.OptionalExtras.SunRoof) != 0 ? 1UL : 0UL);
            var engine = car.Engine;
            s = Mix(s, engine.Capacity);
            s = Mix(s, engine.NumCylinders);
            s = Mix(s, Car.EngineDecoder.MaxRpm);
            foreach (byte b in engine.ManufacturerCodeBytes)
            {
                s = Mix(s, b);
            }
            s = Mix(s, (ulong)Car.EngineDecoder.Fuel.Length);
            for (var f = car.FuelFigures; f.MoveNext();)
            {
                s = Mix(s, f.Speed);
                s = Mix(s, (uint)BitConverter.SingleToInt32Bits(f.Mpg));
            }
            for (var p = car.PerformanceFigures; p.MoveNext();)
            {
                s = Mix(s, p.OctaneRating);
                for (var a = p.Acceleration; a.MoveNext();)
                {
                    s = Mix(s, a.Mph);
                    s = Mix(s, (uint)BitConverter.SingleToInt32Bits(a.Seconds));
                }
            }
            s = Mix(s, (ulong)car.ManufacturerBytes.Length);
            s = Mix(s, (ulong)car.ModelBytes.Length);
            return Mix(s, (ulong)car.EncodedLength);
        }

        // ---- Car, baseline ----

        private static int CarEncodeBaseline(Span<byte> b)
        {
            BinaryPrimitives.WriteUInt16LittleEndian(b, 41);
            BinaryPrimitives.WriteUInt16LittleEndian(b.Slice(2), 1);
            BinaryPrimitives.WriteUInt16LittleEndian(b.Slice(4), 1);
            BinaryPrimitives.WriteUInt16LittleEndian(b.Slice(6), 1);
            b[15] = (byte)'A';
            BinaryPrimitives.WriteUInt16LittleEndian(b.Slice(12), 2005);
            BinaryPrimitives.WriteUInt32LittleEndian(b.Slice(8), 12345);
            b[14] = 1;
            VehicleCode.AsSpan().CopyTo(b.Slice(36, 6));
            for (int i = 0; i < 5; i++)
            {
                BinaryPrimitives.WriteInt32LittleEndian(b.Slice(16 + 4 * i), i);
            }
            b[42] = 0b11;
            BinaryPrimitives.WriteUInt16LittleEndian(b.Slice(43), 4200);
            b[45] = 8;
            ManufacturerCode.AsSpan().CopyTo(b.Slice(46, 3));
            int p = 49;
            BinaryPrimitives.WriteUInt16LittleEndian(b.Slice(p), 6);
            BinaryPrimitives.WriteUInt16LittleEndian(b.Slice(p + 2), 3);
            p += 4;
            for (int i = 0; i < 3; i++)
            {
                BinaryPrimitives.WriteUInt16LittleEndian(b.Slice(p), Speeds[i]);
                BinaryPrimitives.WriteInt32LittleEndian(b.Slice(p + 2), BitConverter.SingleToInt32Bits(Mpgs[i]));
                p += 6;
            }
            BinaryPrimitives.WriteUInt16LittleEndian(b.Slice(p), 1);
            BinaryPrimitives.WriteUInt16LittleEndian(b.Slice(p + 2), 2);
            p += 4;
            for (int i = 0; i < 2; i++)
            {
                b[p] = Octanes[i];
                p += 1;
                BinaryPrimitives.WriteUInt16LittleEndian(b.Slice(p), 6);
                BinaryPrimitives.WriteUInt16LittleEndian(b.Slice(p + 2), 3);
                p += 4;
                for (int k = 0; k < 3; k++)
                {
                    BinaryPrimitives.WriteUInt16LittleEndian(b.Slice(p), Mphs[k]);
                    BinaryPrimitives.WriteInt32LittleEndian(b.Slice(p + 2), BitConverter.SingleToInt32Bits(Seconds[i][k]));
                    p += 6;
                }
            }
            BinaryPrimitives.WriteUInt32LittleEndian(b.Slice(p), (uint)Manufacturer.Length);
            Manufacturer.AsSpan().CopyTo(b.Slice(p + 4));
            p += 4 + Manufacturer.Length;
            BinaryPrimitives.WriteUInt32LittleEndian(b.Slice(p), (uint)ModelName.Length);
            ModelName.AsSpan().CopyTo(b.Slice(p + 4));
            return p + 4 + ModelName.Length;
        }

        private static ulong CarDecodeBaseline(ReadOnlySpan<byte> b)
        {
            int block = BinaryPrimitives.ReadUInt16LittleEndian(b);
            ulong s = 0;
            s = Mix(s, BinaryPrimitives.ReadUInt32LittleEndian(b.Slice(8)));
            s = Mix(s, BinaryPrimitives.ReadUInt16LittleEndian(b.Slice(12)));
            s = Mix(s, b[14]);
            s = Mix(s, b[15]);
            for (int i = 0; i < 5; i++)
            {
                s = Mix(s, (ulong)BinaryPrimitives.ReadInt32LittleEndian(b.Slice(16 + 4 * i)));
            }
            foreach (byte c in b.Slice(36, 6))
            {
                s = Mix(s, c);
            }
            byte extras = b[42];
            s = Mix(s, (extras & 4) != 0 ? 1UL : 0UL);
            s = Mix(s, (extras & 2) != 0 ? 1UL : 0UL);
            s = Mix(s, (extras & 1) != 0 ? 1UL : 0UL);
            s = Mix(s, BinaryPrimitives.ReadUInt16LittleEndian(b.Slice(43)));
            s = Mix(s, b[45]);
            s = Mix(s, 9000);
            foreach (byte c in b.Slice(46, 3))
            {
                s = Mix(s, c);
            }
            s = Mix(s, 6);
            int p = 8 + block;
            int bl = BinaryPrimitives.ReadUInt16LittleEndian(b.Slice(p));
            int n = BinaryPrimitives.ReadUInt16LittleEndian(b.Slice(p + 2));
            p += 4;
            for (int i = 0; i < n; i++)
            {
                s = Mix(s, BinaryPrimitives.ReadUInt16LittleEndian(b.Slice(p)));
                s = Mix(s, BinaryPrimitives.ReadUInt32LittleEndian(b.Slice(p + 2)));
                p += bl;
            }
            bl = BinaryPrimitives.ReadUInt16LittleEndian(b.Slice(p));
            n = BinaryPrimitives.ReadUInt16LittleEndian(b.Slice(p + 2));
            p += 4;
            for (int i = 0; i < n; i++)
            {
                s = Mix(s, b[p]);
                p += bl;
                int abl = BinaryPrimitives.ReadUInt16LittleEndian(b.Slice(p));
                int an = BinaryPrimitives.ReadUInt16LittleEndian(b.Slice(p + 2));
                p += 4;
                for (int k = 0; k < an; k++)
                {
                    s = Mix(s, BinaryPrimitives.ReadUInt16LittleEndian(b.Slice(p)));
                    s = Mix(s, BinaryPrimitives.ReadUInt32LittleEndian(b.Slice(p + 2)));
                    p += abl;
                }
            }
            int len = (int)BinaryPrimitives.ReadUInt32LittleEndian(b.Slice(p));
            s = Mix(s, (ulong)b.Slice(p + 4, len).Length);
            p += 4 + len;
            len = (int)BinaryPrimitives.ReadUInt32LittleEndian(b.Slice(p));
            s = Mix(s, (ulong)b.Slice(p + 4, len).Length);
            p += 4 + len;
            return Mix(s, (ulong)p);
        }

        // ---- MarketData, Sable ----

        private static int MdEncodeSable(Span<byte> buffer)
        {
            var md = new Md.MarketDataIncrementalRefreshTradesEncoder(buffer);
            md.SetTransactTime(1234);
            md.SetEventTimeDelta(987);
            md.SetMatchEventIndicator(Md.MatchEventIndicator.EndEvent);
            var g = md.MdIncGrpCount(2);
            for (int i = 0; i < 2; i++)
            {
                g.MoveNext();
                g.SetTradeId(1234);
                g.SetSecurityId(56789);
                g.SetMdEntryPxMantissa(50);
                g.SetMdEntrySizeMantissa(10);
                g.SetNumberOfOrders(1);
                g.SetMdUpdateAction(Md.MdUpdateAction.New);
                g.SetRptSeq(1);
                g.SetAggressorSide(i == 0 ? Md.Side.Buy : Md.Side.Sell);
            }
            return md.EncodedLength;
        }

        // The same message with fluent setters.
        private static int MdEncodeFluent(Span<byte> buffer)
        {
            var md = new Md.MarketDataIncrementalRefreshTradesEncoder(buffer);
            md.TransactTime(1234).EventTimeDelta(987).MatchEventIndicator(Md.MatchEventIndicator.EndEvent);
            var g = md.MdIncGrpCount(2);
            for (int i = 0; i < 2; i++)
            {
                g.Next().TradeId(1234).SecurityId(56789).MdEntryPxMantissa(50).MdEntrySizeMantissa(10).NumberOfOrders(1).MdUpdateAction(Md.MdUpdateAction.New).RptSeq(1).AggressorSide(i == 0 ? Md.Side.Buy : Md.Side.Sell);
            }
            return md.EncodedLength;
        }

        private static ulong MdDecodeSable(ReadOnlySpan<byte> buffer)
        {
            var md = new Md.MarketDataIncrementalRefreshTradesDecoder(buffer);
            ulong s = 0;
            s = Mix(s, md.TransactTime);
            s = Mix(s, md.EventTimeDelta);
            s = Mix(s, (ulong)md.MatchEventIndicator);
            for (var e = md.MdIncGrp; e.MoveNext();)
            {
                s = Mix(s, e.TradeId);
                s = Mix(s, e.SecurityId);
                s = Mix(s, (ulong)e.MdEntryPxMantissa);
                s = Mix(s, (ulong)e.MdEntrySizeMantissa);
                s = Mix(s, e.NumberOfOrders);
                s = Mix(s, (ulong)e.MdUpdateAction);
                s = Mix(s, e.RptSeq);
                s = Mix(s, (ulong)e.AggressorSide);
                s = Mix(s, (ulong)e.MdEntryType);
            }
            return Mix(s, (ulong)md.EncodedLength);
        }

        // ---- MarketData, baseline ----

        private static int MdEncodeBaseline(Span<byte> b)
        {
            BinaryPrimitives.WriteUInt16LittleEndian(b, 11);
            BinaryPrimitives.WriteUInt16LittleEndian(b.Slice(2), 2);
            BinaryPrimitives.WriteUInt16LittleEndian(b.Slice(4), 1);
            BinaryPrimitives.WriteUInt16LittleEndian(b.Slice(6), 1);
            BinaryPrimitives.WriteUInt64LittleEndian(b.Slice(8), 1234);
            BinaryPrimitives.WriteUInt16LittleEndian(b.Slice(16), 987);
            b[18] = (byte)'2';
            BinaryPrimitives.WriteUInt16LittleEndian(b.Slice(19), 33);
            BinaryPrimitives.WriteUInt16LittleEndian(b.Slice(21), 2);
            int p = 23;
            for (int i = 0; i < 2; i++)
            {
                BinaryPrimitives.WriteUInt64LittleEndian(b.Slice(p), 1234);
                BinaryPrimitives.WriteUInt64LittleEndian(b.Slice(p + 8), 56789);
                BinaryPrimitives.WriteInt64LittleEndian(b.Slice(p + 16), 50);
                BinaryPrimitives.WriteInt32LittleEndian(b.Slice(p + 24), 10);
                BinaryPrimitives.WriteUInt16LittleEndian(b.Slice(p + 28), 1);
                b[p + 30] = 0;
                b[p + 31] = 1;
                b[p + 32] = i == 0 ? (byte)'1' : (byte)'2';
                p += 33;
            }
            return p;
        }

        private static ulong MdDecodeBaseline(ReadOnlySpan<byte> b)
        {
            int block = BinaryPrimitives.ReadUInt16LittleEndian(b);
            ulong s = 0;
            s = Mix(s, BinaryPrimitives.ReadUInt64LittleEndian(b.Slice(8)));
            s = Mix(s, BinaryPrimitives.ReadUInt16LittleEndian(b.Slice(16)));
            s = Mix(s, b[18]);
            int p = 8 + block;
            int bl = BinaryPrimitives.ReadUInt16LittleEndian(b.Slice(p));
            int n = BinaryPrimitives.ReadUInt16LittleEndian(b.Slice(p + 2));
            p += 4;
            for (int i = 0; i < n; i++)
            {
                s = Mix(s, BinaryPrimitives.ReadUInt64LittleEndian(b.Slice(p)));
                s = Mix(s, BinaryPrimitives.ReadUInt64LittleEndian(b.Slice(p + 8)));
                s = Mix(s, (ulong)BinaryPrimitives.ReadInt64LittleEndian(b.Slice(p + 16)));
                s = Mix(s, (ulong)BinaryPrimitives.ReadInt32LittleEndian(b.Slice(p + 24)));
                s = Mix(s, BinaryPrimitives.ReadUInt16LittleEndian(b.Slice(p + 28)));
                s = Mix(s, b[p + 30]);
                s = Mix(s, b[p + 31]);
                s = Mix(s, b[p + 32]);
                s = Mix(s, (byte)'2');
                p += bl;
            }
            return Mix(s, (ulong)p);
        }

        // ---- Measurement ----

        private delegate long Op(byte[] buffer);

        /// <summary>The median of 7 timed runs of <paramref name="op"/>, in ns per call.</summary>
        private static double Measure(Op op, byte[] buffer, double seconds)
        {
            long sink = 0;
            int n = 1000;
            double last;
            var sw = Stopwatch.StartNew();
            while (true)
            {
                double start = sw.Elapsed.TotalSeconds;
                for (int i = 0; i < n; i++)
                {
                    sink += op(buffer);
                }
                last = sw.Elapsed.TotalSeconds - start;
                if (sw.Elapsed.TotalSeconds >= seconds / 8)
                {
                    break;
                }
                n *= 2;
            }
            // Each timed run as long as seconds / 7, from the last warm-up batch's rate.
            int per = Math.Max(1000, (int)(n * (seconds / 7) / Math.Max(last, 1e-9)));
            var runs = new double[7];
            for (int r = 0; r < runs.Length; r++)
            {
                sw.Restart();
                for (int i = 0; i < per; i++)
                {
                    sink += op(buffer);
                }
                runs[r] = sw.Elapsed.TotalMilliseconds * 1e6 / per;
            }
            Array.Sort(runs);
            if (sink == 42)
            {
                Console.WriteLine();
            }
            return runs[runs.Length / 2];
        }

        /// <summary>
        /// Runs one benchmark (<c>car/decode</c>, or <c>car/decode/baseline</c> for the baseline's)
        /// <paramref name="n"/> times, untimed: for instruction counts, e.g. the difference between two
        /// runs of <c>valgrind --tool=callgrind mono bench-mono.dll --count NAME N</c> for two N
        /// (scripts/count-csharp.sh, on both runtimes).
        /// </summary>
        private static int Count(string name, int n)
        {
            var car = new byte[1024];
            CarEncodeSable(car);
            var md = new byte[1024];
            MdEncodeSable(md);
            var buffer = new byte[1024];
            Op op;
            switch (name)
            {
                case "car/encode": op = x => CarEncodeSable(x); break;
                case "car/encode/fluent": op = x => CarEncodeFluent(x); break;
                case "car/encode/baseline": op = x => CarEncodeBaseline(x); break;
                case "car/decode": op = x => (long)CarDecodeSable(x); buffer = car; break;
                case "car/decode/baseline": op = x => (long)CarDecodeBaseline(x); buffer = car; break;
                case "md/encode": op = x => MdEncodeSable(x); break;
                case "md/encode/fluent": op = x => MdEncodeFluent(x); break;
                case "md/encode/baseline": op = x => MdEncodeBaseline(x); break;
                case "md/decode": op = x => (long)MdDecodeSable(x); buffer = md; break;
                case "md/decode/baseline": op = x => (long)MdDecodeBaseline(x); buffer = md; break;
                default:
                    Console.Error.WriteLine("bench: no benchmark " + name);
                    return 2;
            }
            long sink = 0;
            for (int i = 0; i < n; i++)
            {
                sink += op(buffer);
            }
            Console.WriteLine(sink);
            return 0;
        }

        public static int Main(string[] args)
        {
            if (args.Length == 3 && args[0] == "--count")
            {
                return Count(args[1], int.Parse(args[2], System.Globalization.CultureInfo.InvariantCulture));
            }
            double seconds = args.Length > 0 ? double.Parse(args[0], System.Globalization.CultureInfo.InvariantCulture) : 3;
            var a = new byte[1024];
            var b = new byte[1024];
            var f = new byte[1024];
            int n = CarEncodeSable(a);
            int m = CarEncodeBaseline(b);
            int k = CarEncodeFluent(f);
            if (n != m || k != m || !a.AsSpan(0, n).SequenceEqual(b.AsSpan(0, m)) || !f.AsSpan(0, k).SequenceEqual(b.AsSpan(0, m)) || CarDecodeSable(a) != CarDecodeBaseline(a))
            {
                Console.Error.WriteLine("bench: the Car codecs and the baseline differ");
                return 1;
            }
            n = MdEncodeSable(a);
            m = MdEncodeBaseline(b);
            k = MdEncodeFluent(f);
            if (n != m || k != m || !a.AsSpan(0, n).SequenceEqual(b.AsSpan(0, m)) || !f.AsSpan(0, k).SequenceEqual(b.AsSpan(0, m)) || MdDecodeSable(a) != MdDecodeBaseline(a))
            {
                Console.Error.WriteLine("bench: the MarketData codecs and the baseline differ");
                return 1;
            }
            var car = new byte[1024];
            CarEncodeSable(car);
            var md = new byte[1024];
            MdEncodeSable(md);
            var rows = new[]
            {
                Tuple.Create("car/encode", (Op)(x => CarEncodeSable(x)), (Op)(x => CarEncodeBaseline(x)), new byte[1024]),
                Tuple.Create("car/enc/flu", (Op)(x => CarEncodeFluent(x)), (Op)(x => CarEncodeBaseline(x)), new byte[1024]),
                Tuple.Create("car/decode", (Op)(x => (long)CarDecodeSable(x)), (Op)(x => (long)CarDecodeBaseline(x)), car),
                Tuple.Create("md/encode", (Op)(x => MdEncodeSable(x)), (Op)(x => MdEncodeBaseline(x)), new byte[1024]),
                Tuple.Create("md/enc/flu", (Op)(x => MdEncodeFluent(x)), (Op)(x => MdEncodeBaseline(x)), new byte[1024]),
                Tuple.Create("md/decode", (Op)(x => (long)MdDecodeSable(x)), (Op)(x => (long)MdDecodeBaseline(x)), md),
            };
            Console.WriteLine("{0,-12} {1,12} {2,14} {3,7}", "benchmark", "sable (ns)", "baseline (ns)", "ratio");
            foreach (var row in rows)
            {
                double sable = Measure(row.Item2, row.Item4, seconds);
                double baseline = Measure(row.Item3, row.Item4, seconds);
                Console.WriteLine("{0,-12} {1,12:F1} {2,14:F1} {3,7:F2}", row.Item1, sable, baseline, sable / baseline);
            }
            return 0;
        }
    }
}
