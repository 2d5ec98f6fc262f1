// The C# codec driver (scripts/codec-driver.sh): reads one message per line as hex on standard
// input (`-` alone: the empty message), decodes it through the generated codecs' schema-level entry point (SbeSchema, in the
// namespace Sable.Driver.Codecs), and writes one line per message: its canonical JSON, or
// {"error":{"offset":N,"field":"...","kind":"...","message":"..."}}. Built by
// scripts/drivers/csharp.sh.

using System;
using System.IO;
using System.Text;
using Sable.Driver.Codecs;
using Sable.Sbe;

namespace Sable.Driver
{
    public static class Driver
    {
        public static int Main()
        {
            var input = new StreamReader(Console.OpenStandardInput(), new UTF8Encoding(false));
            var output = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));
            output.NewLine = "\n";
            var sb = new StringBuilder();
            int lineNumber = 0;
            string line;
            while ((line = input.ReadLine()) != null)
            {
                lineNumber++;
                string hex = line.Trim();
                if (hex.Length == 0)
                {
                    continue;
                }
                byte[] bytes = ParseHex(hex);
                if (bytes == null)
                {
                    output.Flush();
                    Console.Error.WriteLine("csharp driver: line " + lineNumber + " is neither hex nor -");
                    return 2;
                }
                sb.Clear();
                try
                {
                    SbeSchema.AppendJson(bytes, sb);
                }
                catch (SbeDecodeException e)
                {
                    sb.Clear();
                    e.AppendJson(sb.Append("{\"error\":")).Append('}');
                }
                catch (Exception e)
                {
                    // Not an error the contract knows: a bug in the codecs, shown against its message.
                    sb.Clear();
                    sb.Append("{\"error\":{\"offset\":-1,\"field\":\"\",\"kind\":\"exception\",\"message\":");
                    SbeJson.String(sb, e.GetType().Name + ": " + e.Message);
                    sb.Append("}}");
                }
                output.WriteLine(sb.ToString());
                output.Flush();
            }
            output.Flush();
            return 0;
        }

        // The bytes of a hex line, none for "-" (the empty message), or null when it is neither.
        private static byte[] ParseHex(string hex)
        {
            if (hex == "-")
            {
                return new byte[0];
            }
            if (hex.Length % 2 != 0)
            {
                return null;
            }
            var bytes = new byte[hex.Length / 2];
            for (int i = 0; i < bytes.Length; i++)
            {
                int hi = Digit(hex[2 * i]);
                int lo = Digit(hex[2 * i + 1]);
                if (hi < 0 || lo < 0)
                {
                    return null;
                }
                bytes[i] = (byte)(hi * 16 + lo);
            }
            return bytes;
        }

        private static int Digit(char c)
        {
            if (c >= '0' && c <= '9')
            {
                return c - '0';
            }
            if (c >= 'a' && c <= 'f')
            {
                return c - 'a' + 10;
            }
            if (c >= 'A' && c <= 'F')
            {
                return c - 'A' + 10;
            }
            return -1;
        }
    }
}
