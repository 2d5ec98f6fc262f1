// Tests of the generated C# codecs of the Car schema (../shared/schemas/valid/example-schema.xml,
// generated into the namespace Sable.Tests.Car by scripts/csharp-tests.sh): the conformance
// vector encoded byte for byte over byte[], Memory<byte> and unmanaged memory; reads through the
// decoder API; random round trips; the encoders' errors; decoding in any order; and no
// allocation on the encode and decode paths. Prints one line per failure, then
// "csharp unit: N passed, M failed".

using System;
using System.IO;
using System.Runtime.InteropServices;
using System.Text;
using Sable.Sbe;
using Sable.Tests.Car;

namespace Sable.Tests
{
    public static class CarTests
    {
        private static int passed;
        private static int failed;

        private static readonly byte[] VehicleCode = Encoding.ASCII.GetBytes("abcdef");
        private static readonly byte[] ManufacturerCode = Encoding.ASCII.GetBytes("123");
        private static readonly byte[] Manufacturer = Encoding.ASCII.GetBytes("Honda");
        private static readonly byte[] ModelName = Encoding.ASCII.GetBytes("Civic VTi");
        private static readonly byte[] ActivationCode = Encoding.ASCII.GetBytes("abcdef");
        private static readonly byte[][] Usage =
        {
            Encoding.ASCII.GetBytes("Urban Cycle"), Encoding.ASCII.GetBytes("Combined Cycle"), Encoding.ASCII.GetBytes("Highway Cycle"),
        };
        private static readonly ushort[] Speeds = { 30, 55, 75 };
        private static readonly float[] Mpgs = { 35.9f, 49.0f, 40.0f };
        private static readonly ushort[] Mphs = { 30, 60, 100 };
        private static readonly float[][] Seconds = { new[] { 4.0f, 7.5f, 12.2f }, new[] { 3.8f, 7.1f, 11.8f } };

        private static void Check(string name, bool ok, string detail = "")
        {
            if (ok)
            {
                passed++;
            }
            else
            {
                failed++;
                Console.WriteLine("FAIL " + name + (detail.Length > 0 ? ": " + detail : ""));
            }
        }

        public static int Main(string[] args)
        {
            string vectors = File.ReadAllText(args[0]);
            string line = Array.Find(vectors.Split('\n'), l => l.StartsWith("{\"name\":\"car\",", StringComparison.Ordinal));
            int j = line.IndexOf("\"json\":", StringComparison.Ordinal) + 7;
            int h = line.IndexOf(",\"hex\":\"", StringComparison.Ordinal);
            string json = line.Substring(j, h - j);
            string hex = line.Substring(h + 8, line.LastIndexOf('"') - h - 8);

            EncodesTheVector(json, hex);
            EncodesOverEveryKindOfMemory(hex);
            DecodesThroughTheApi(FromHex(hex));
            DecodesInAnyOrder(FromHex(hex));
            DecodesWithMoveNext(FromHex(hex));
            ReadsAbsentComposites(FromHex(hex));
            ReportsDecodeErrors(FromHex(hex));
            ReportsEncodeErrors();
            RoundTripsRandomMessages();
            AllocatesNothing(FromHex(hex));
            Console.WriteLine("csharp unit: " + passed + " passed, " + failed + " failed");
            return failed == 0 ? 0 : 1;
        }

        private static int Encode(Span<byte> buffer)
        {
            var car = new CarEncoder(buffer);
            car.SerialNumber(1234).ModelYear(2013).Available(BooleanType.T).Code(Model.A).VehicleCode(VehicleCode);
            for (int i = 0; i < CarEncoder.SomeNumbersLength; i++)
            {
                car.SomeNumbers(i, (uint)i);
            }
            car.Extras(OptionalExtras.SportsPack | OptionalExtras.CruiseControl);
            car.Engine.Capacity(2000).NumCylinders(4).ManufacturerCode(ManufacturerCode).Efficiency(35)
                .BoosterEnabled(BooleanType.T).Booster.BoostType(BoostType.Nitrous).HorsePower(200);
            var fuel = car.FuelFiguresCount(3);
            fuel.Next().Speed(30).Mpg(35.9f).UsageDescription(Usage[0]);
            fuel.Next().Speed(55).Mpg(49.0f).UsageDescription(Usage[1]);
            fuel.Next().Speed(75).Mpg(40.0f).UsageDescription(Usage[2]);
            var perf = car.PerformanceFiguresCount(2);
            perf.Next().OctaneRating(95);
            var acc = perf.AccelerationCount(3);
            acc.Next().Mph(30).Seconds(4.0f);
            acc.Next().Mph(60).Seconds(7.5f);
            acc.Next().Mph(100).Seconds(12.2f);
            perf.Next().OctaneRating(99);
            acc = perf.AccelerationCount(3);
            acc.Next().Mph(30).Seconds(3.8f);
            acc.Next().Mph(60).Seconds(7.1f);
            acc.Next().Mph(100).Seconds(11.8f);
            car.Manufacturer(Manufacturer).Model(ModelName).ActivationCode(ActivationCode);
            return car.EncodedLength;
        }

        /// <summary>The vector's message written with statements: the setters' void twins (<c>SetX</c>, <c>MoveNext</c>).</summary>
        private static int EncodeWithStatements(Span<byte> buffer)
        {
            var car = new CarEncoder(buffer);
            car.SetSerialNumber(1234);
            car.SetModelYear(2013);
            car.SetAvailable(BooleanType.T);
            car.SetCode(Model.A);
            car.SetVehicleCode(VehicleCode);
            for (int i = 0; i < CarEncoder.SomeNumbersLength; i++)
            {
                car.SetSomeNumbers(i, (uint)i);
            }
            car.SetExtras(OptionalExtras.SportsPack | OptionalExtras.CruiseControl);
            car.SetEngineCapacity(2000); // a composite's members written in place
            car.SetEngineNumCylinders(4);
            car.SetEngineEfficiency(35);
            var engine = car.Engine;
            engine.SetManufacturerCode(ManufacturerCode);
            engine.SetBoosterEnabled(BooleanType.T);
            var booster = engine.Booster;
            booster.SetBoostType(BoostType.Nitrous);
            booster.SetHorsePower(200);
            var fuel = car.FuelFiguresCount(3);
            for (int i = 0; i < 3; i++)
            {
                fuel.MoveNext();
                fuel.SetSpeed(Speeds[i]);
                fuel.SetMpg(Mpgs[i]);
                fuel.SetUsageDescription(Usage[i]);
            }
            var perf = car.PerformanceFiguresCount(2);
            for (int i = 0; i < 2; i++)
            {
                perf.MoveNext();
                perf.SetOctaneRating((byte)(95 + 4 * i));
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
            car.SetActivationCode(ActivationCode);
            return car.EncodedLength;
        }

        private static void EncodesTheVector(string json, string hex)
        {
            var buffer = new byte[512];
            int n = Encode(buffer);
            Check("encodes the car vector byte for byte", ToHex(buffer, n) == hex, ToHex(buffer, n));
            var statements = new byte[512];
            int m = EncodeWithStatements(statements);
            Check("encodes the car vector byte for byte with SetX and MoveNext", ToHex(statements, m) == hex, ToHex(statements, m));
            Check("encoded length", n == hex.Length / 2, n.ToString());
            Check("SbeSchema.ToJson prints the vector's JSON", SbeSchema.ToJson(new ReadOnlySpan<byte>(buffer, 0, n)) == json);
            var text = new CarEncoder(buffer);
            text.Manufacturer("Honda").Model("Civic VTi").ActivationCode("abcdef");
            Check("text var data is written as its bytes", new CarDecoder(buffer).Manufacturer == "Honda");
        }

        private static unsafe void EncodesOverEveryKindOfMemory(string hex)
        {
            var array = new byte[600];
            var memory = new Memory<byte>(array, 37, 400);
            int n = Encode(memory.Span);
            Check("over Memory<byte> at an offset", ToHex(memory.Span.Slice(0, n).ToArray(), n) == hex);
            Check("decoder over Memory<byte>", new CarDecoder(memory.Span).EncodedLength == n);
            IntPtr native = Marshal.AllocHGlobal(512);
            try
            {
                var span = new Span<byte>((void*)native, 512);
                span.Clear();
                int m = Encode(span);
                Check("over unmanaged memory", ToHex(span.Slice(0, m).ToArray(), m) == hex);
                var decoder = new CarDecoder(new ReadOnlySpan<byte>((void*)native, m));
                Check("decoder over unmanaged memory", decoder.SerialNumber == 1234 && decoder.Model == "Civic VTi");
            }
            finally
            {
                Marshal.FreeHGlobal(native);
            }
        }

        private static void DecodesThroughTheApi(byte[] bytes)
        {
            var car = new CarDecoder(bytes);
            Check("header", car.Header.TemplateId == CarDecoder.TemplateId && car.Header.SchemaId == CarDecoder.SchemaId && car.ActingBlockLength == 49);
            Check("fixed fields", car.SerialNumber == 1234 && car.ModelYear == 2013 && car.Available == BooleanType.T && car.Code == Model.A);
            Check("array", car.SomeNumbers(4) == 4 && car.VehicleCode == "abcdef" && car.VehicleCodeBytes.Length == 6);
            Check("set", (car.Extras & OptionalExtras.CruiseControl) != 0 && (car.Extras & OptionalExtras.SunRoof) == 0);
            Check("constant enum", car.DiscountedModel == Model.C);
            var engine = car.Engine;
            Check("composite", engine.Capacity == 2000 && engine.ManufacturerCode == "123" && engine.Booster.BoostType == BoostType.Nitrous && engine.Booster.HorsePower == 200);
            Check("composite members read in place", car.EngineCapacity == 2000 && car.EngineNumCylinders == 4 && car.EngineEfficiency == 35 && car.EngineCapacity == engine.Capacity);
            Check("enum names", Model.A.SbeName() == "A" && ((Model)90).SbeName() == null);
            int entries = 0;
            float mpg = 0;
            foreach (var f in car.FuelFigures)
            {
                entries++;
                mpg += f.Mpg;
                Check("entry var data", f.UsageDescription == Encoding.ASCII.GetString(Usage[entries - 1]));
            }
            Check("group with foreach", entries == 3 && Math.Abs(mpg - 124.9f) < 0.01f);
            float seconds = 0;
            foreach (var p in car.PerformanceFigures)
            {
                foreach (var a in p.Acceleration)
                {
                    seconds += a.Seconds;
                }
            }
            Check("nested groups", Math.Abs(seconds - 46.4f) < 0.01f);
            Check("var data", car.Manufacturer == "Honda" && car.Model == "Civic VTi" && car.ActivationCodeBytes.Length == 6);
            Check("decoder encoded length", car.EncodedLength == bytes.Length);
        }

        private static void ReadsAbsentComposites(byte[] bytes)
        {
            // An absent composite reads from its block of null values (SbeNulls): every member,
            // a nested composite's too, its null value; the buffer's bytes are not read.
            var engine = new EngineDecoder(bytes, 8 + 35, false, 0);
            Check("absent composite: not present", !engine.IsPresent && engine.ActingVersion == -1);
            Check("absent composite: members null", engine.Capacity == EngineDecoder.CapacityNullValue && engine.NumCylinders == EngineDecoder.NumCylindersNullValue && engine.Efficiency == EngineDecoder.EfficiencyNullValue && engine.BoosterEnabled == BooleanType.NullValue && engine.ManufacturerCodeBytes.Length == 0);
            var booster = engine.Booster;
            Check("absent composite: nested composite null", !booster.IsPresent && booster.BoostType == BoostType.NullValue && booster.HorsePower == BoosterDecoder.HorsePowerNullValue);
            Check("absent composite: JSON", engine.ToString() == "{\"capacity\":null,\"numCylinders\":null,\"maxRpm\":null,\"manufacturerCode\":null,\"fuel\":null,\"efficiency\":null,\"boosterEnabled\":null,\"booster\":null}", engine.ToString());
            var body = CarDecoder.WithoutHeader(new ReadOnlySpan<byte>(bytes, 8, bytes.Length - 8), 49, 0);
            var header = body.Header;
            Check("a body without a header: the header absent", header.BlockLength == MessageHeaderDecoder.BlockLengthNullValue && header.TemplateId == MessageHeaderDecoder.TemplateIdNullValue && body.Engine.Capacity == 2000);
        }

        private static void DecodesInAnyOrder(byte[] bytes)
        {
            var car = new CarDecoder(bytes);
            Check("last var data first", car.ActivationCode == "abcdef");
            Check("then a group before it", car.FuelFigures.Count == 3);
            Check("then a var data between", car.Manufacturer == "Honda");
            Check("JSON at any point", SbeSchema.ToJson(bytes) == car.ToString());
        }

        /// <summary>
        /// Groups read with <c>MoveNext</c> loops: the loop's variable knows where an entry ends
        /// once its last group or var data is read, and finds the next entry (and the group's end)
        /// from there; an entry read only in part is walked instead.
        /// </summary>
        private static void DecodesWithMoveNext(byte[] bytes)
        {
            var car = new CarDecoder(bytes);
            int entries = 0;
            float mpg = 0;
            for (var f = car.FuelFigures; f.MoveNext();)
            {
                mpg += f.Mpg;
                if (entries++ == 1)
                {
                    Check("MoveNext: entry var data of the middle entry", f.UsageDescription == Encoding.ASCII.GetString(Usage[1]));
                }
            }
            Check("MoveNext: entries after an entry read whole or in part", entries == 3 && Math.Abs(mpg - 124.9f) < 0.01f);
            float seconds = 0;
            int octanes = 0;
            bool first = true;
            for (var p = car.PerformanceFigures; p.MoveNext();)
            {
                octanes += p.OctaneRating;
                if (first)
                {
                    for (var a = p.Acceleration; a.MoveNext();)
                    {
                        seconds += a.Seconds;
                    }
                    first = false;
                }
            }
            Check("MoveNext: nested groups read in the first entry only", octanes == 95 + 99 && Math.Abs(seconds - 23.7f) < 0.01f, octanes + " " + seconds);
            Check("MoveNext: var data after the groups", car.Manufacturer == "Honda" && car.EncodedLength == bytes.Length);
            car = new CarDecoder(bytes);
            seconds = 0;
            for (var p = car.PerformanceFigures; p.MoveNext();)
            {
                for (var a = p.Acceleration; a.MoveNext();)
                {
                    seconds += a.Seconds;
                }
            }
            Check("MoveNext: every nested group read, then the var data", Math.Abs(seconds - 46.4f) < 0.01f && car.Manufacturer == "Honda" && car.EncodedLength == bytes.Length);
        }

        private static void ReportsDecodeErrors(byte[] bytes)
        {
            var cut = new byte[205];
            Array.Copy(bytes, cut, cut.Length);
            try
            {
                SbeSchema.AppendJson(cut, new StringBuilder());
                Check("truncated var data is an error", false);
            }
            catch (SbeDecodeException e)
            {
                Check("truncated var data: offset, field, kind", e.Offset == 201 && e.Field == "fields.activationCode" && e.Kind == SbeErrorKind.Truncated, e.Offset + " " + e.Field);
            }
            var inGroup = new byte[153];
            Array.Copy(bytes, inGroup, inGroup.Length);
            try
            {
                var car = new CarDecoder(inGroup);
                foreach (var p in car.PerformanceFigures)
                {
                    foreach (var a in p.Acceleration)
                    {
                    }
                }
                Check("truncated entry is an error", false);
            }
            catch (SbeDecodeException e)
            {
                Check("truncated nested entry: path with indices", e.Offset == 150 && e.Field == "fields.performanceFigures[0].acceleration[2]", e.Offset + " " + e.Field);
            }
            var other = (byte[])bytes.Clone();
            other[4] = 9;
            Check("schema id mismatch", SbeSchema.ToJson(other).StartsWith("{\"error\":{\"offset\":4,\"field\":\"header.schemaId\",\"kind\":\"schemaIdMismatch\"", StringComparison.Ordinal));
        }

        private static void ExpectEncodeError(string name, SbeErrorKind kind, string field, Action action)
        {
            try
            {
                action();
                Check(name, false, "no error");
            }
            catch (SbeEncodeException e)
            {
                Check(name, e.Kind == kind && e.Field == field, e.Kind.ContractName() + " " + e.Field);
            }
        }

        private static void ReportsEncodeErrors()
        {
            var buffer = new byte[512];
            ExpectEncodeError("text too long", SbeErrorKind.TextTooLong, "fields.vehicleCode", () => new CarEncoder(buffer).VehicleCode("abcdefg"));
            ExpectEncodeError("index out of range", SbeErrorKind.IndexOutOfRange, "fields.someNumbers", () => new CarEncoder(buffer).SomeNumbers(5, 1));
            ExpectEncodeError("count too large", SbeErrorKind.CountTooLarge, "fields.fuelFigures", () => new CarEncoder(buffer).FuelFiguresCount(65536));
            ExpectEncodeError("buffer too short", SbeErrorKind.BufferTooShort, "header", () => new CarEncoder(new byte[20]));
            ExpectEncodeError("composite member path", SbeErrorKind.TextTooLong, "fields.engine.manufacturerCode", () => new CarEncoder(buffer).Engine.ManufacturerCode("1234"));
            ExpectEncodeError("composite member out of range", SbeErrorKind.ValueOutOfRange, "fields.engine.efficiency", () => new CarEncoder(buffer).Engine.SetEfficiency(101));
            ExpectEncodeError("composite member in place out of range", SbeErrorKind.ValueOutOfRange, "fields.engine.efficiency", () => new CarEncoder(buffer).SetEngineEfficiency(101));
            ExpectEncodeError("composite member in place out of range, fluent", SbeErrorKind.ValueOutOfRange, "fields.engine.efficiency", () => new CarEncoder(buffer).EngineEfficiency(101));
            ExpectEncodeError("void twin: text too long", SbeErrorKind.TextTooLong, "fields.vehicleCode", () => new CarEncoder(buffer).SetVehicleCode("abcdefg"));
            ExpectEncodeError("void twin: index out of range", SbeErrorKind.IndexOutOfRange, "fields.someNumbers", () => new CarEncoder(buffer).SetSomeNumbers(5, 1));
            ExpectEncodeError("entry path", SbeErrorKind.BufferTooShort, "fields.fuelFigures[0].usageDescription", () =>
            {
                var car = new CarEncoder(new byte[70]);
                car.FuelFiguresCount(1).Next().Speed(1).UsageDescription("far too long to fit");
            });
            ExpectEncodeError("more entries than the count", SbeErrorKind.IndexOutOfRange, "fields.fuelFigures", () =>
            {
                var fuel = new CarEncoder(buffer).FuelFiguresCount(1);
                fuel.Next();
                fuel.Next();
            });
        }

        private static void RoundTripsRandomMessages()
        {
            var random = new Random(17);
            var buffer = new byte[4096];
            int bad = 0;
            for (int iteration = 0; iteration < 500; iteration++)
            {
                ulong serial = (ulong)random.Next() << 32 | (uint)random.Next();
                ushort year = (ushort)random.Next(65536);
                var numbers = new uint[5];
                for (int i = 0; i < 5; i++)
                {
                    numbers[i] = (uint)random.Next();
                }
                var extras = (OptionalExtras)random.Next(256);
                int fuelCount = random.Next(6);
                var speeds = new ushort[fuelCount];
                var usage = new string[fuelCount];
                var car = new CarEncoder(buffer);
                car.SerialNumber(serial).ModelYear(year).Extras(extras).Code(Model.B);
                for (int i = 0; i < 5; i++)
                {
                    car.SomeNumbers(i, numbers[i]);
                }
                var fuel = car.FuelFiguresCount(fuelCount);
                for (int i = 0; i < fuelCount; i++)
                {
                    speeds[i] = (ushort)random.Next(65536);
                    usage[i] = new string('x', random.Next(40));
                    fuel.Next().Speed(speeds[i]).Mpg(i).UsageDescription(usage[i]);
                }
                int perfCount = random.Next(4);
                var perf = car.PerformanceFiguresCount(perfCount);
                int accelerations = 0;
                for (int i = 0; i < perfCount; i++)
                {
                    perf.Next().OctaneRating((byte)(90 + i));
                    int n = random.Next(4);
                    accelerations += n;
                    var acc = perf.AccelerationCount(n);
                    for (int k = 0; k < n; k++)
                    {
                        acc.Next().Mph((ushort)k).Seconds(k);
                    }
                }
                string manufacturer = new string('m', random.Next(100));
                car.Manufacturer(manufacturer).Model("M").ActivationCode("");
                int length = car.EncodedLength;

                var d = new CarDecoder(new ReadOnlySpan<byte>(buffer, 0, length));
                bool ok = d.SerialNumber == serial && d.ModelYear == year && d.Extras == extras && d.Code == Model.B;
                for (int i = 0; i < 5; i++)
                {
                    ok &= d.SomeNumbers(i) == numbers[i];
                }
                int e = 0;
                foreach (var f in d.FuelFigures)
                {
                    ok &= f.Speed == speeds[e] && f.UsageDescription == usage[e];
                    e++;
                }
                ok &= e == fuelCount;
                int seen = 0;
                foreach (var p in d.PerformanceFigures)
                {
                    seen += p.Acceleration.Count;
                }
                ok &= seen == accelerations && d.Manufacturer == manufacturer && d.Model == "M" && d.ActivationCode == "";
                ok &= d.EncodedLength == length;
                if (!ok)
                {
                    bad++;
                }
            }
            Check("500 random messages round trip", bad == 0, bad + " differ");
        }

        private static long EncodeAndDecode(byte[] buffer)
        {
            long sum = Encode(buffer) + EncodeWithStatements(buffer);
            var car = new CarDecoder(buffer);
            sum += (long)car.SerialNumber + car.ModelYear + (int)car.Available + (int)car.Code + car.SomeNumbers(3) + car.VehicleCodeBytes.Length;
            sum += (long)car.Extras + car.Engine.Capacity + car.Engine.Booster.HorsePower;
            foreach (var f in car.FuelFigures)
            {
                sum += f.Speed + (long)f.Mpg + f.UsageDescriptionBytes.Length;
            }
            foreach (var p in car.PerformanceFigures)
            {
                sum += p.OctaneRating;
                foreach (var a in p.Acceleration)
                {
                    sum += a.Mph;
                }
            }
            sum += car.ManufacturerBytes.Length + car.ModelBytes.Length + car.ActivationCodeBytes.Length + car.EncodedLength;
            return sum;
        }

        private static void AllocatesNothing(byte[] expected)
        {
            var buffer = new byte[512];
            long sum = 0;
            for (int i = 0; i < 1000; i++)
            {
                sum += EncodeAndDecode(buffer);
            }
            long before = GC.GetAllocatedBytesForCurrentThread();
            for (int i = 0; i < 100000; i++)
            {
                sum += EncodeAndDecode(buffer);
            }
            long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
            Check("no allocation in 100000 encodes and decodes", allocated == 0, allocated + " bytes (checksum " + sum + ")");
            before = GC.GetAllocatedBytesForCurrentThread();
            for (int i = 0; i < 10000; i++)
            {
                var car = new CarEncoder(buffer);
                car.VehicleCode("abcdef").Engine.ManufacturerCode("123");
                car.FuelFiguresCount(1).Next().UsageDescription("Urban Cycle \u00e9");
                car.PerformanceFiguresCount(0);
                car.Manufacturer("Honda").Model("Civic VTi").ActivationCode("abcdef");
            }
            allocated = GC.GetAllocatedBytesForCurrentThread() - before;
            Check("no allocation in 10000 encodes from strings (UTF-8 and one-byte)", allocated == 0, allocated + " bytes");
            Encode(buffer);
            long probe = GC.GetAllocatedBytesForCurrentThread();
            var unused = new byte[1000];
            Check("the allocation counter counts", GC.GetAllocatedBytesForCurrentThread() - probe >= 1000 && unused.Length == 1000);
            Check("the loop encoded the vector", ToHex(buffer, expected.Length) == ToHex(expected, expected.Length));
        }

        private static byte[] FromHex(string hex)
        {
            var bytes = new byte[hex.Length / 2];
            for (int i = 0; i < bytes.Length; i++)
            {
                bytes[i] = Convert.ToByte(hex.Substring(2 * i, 2), 16);
            }
            return bytes;
        }

        private static string ToHex(byte[] bytes, int n)
        {
            var sb = new StringBuilder();
            for (int i = 0; i < n; i++)
            {
                sb.Append(bytes[i].ToString("x2"));
            }
            return sb.ToString();
        }
    }
}
