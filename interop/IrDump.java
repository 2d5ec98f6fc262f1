import uk.co.real_logic.sbe.PrimitiveType;
import uk.co.real_logic.sbe.PrimitiveValue;
import uk.co.real_logic.sbe.SbeTool;
import uk.co.real_logic.sbe.ir.*;
import uk.co.real_logic.sbe.xml.*;
import java.util.*;

/**
 * The interop oracle: prints the reference implementation's IR in the one-line-per-token text
 * form of Sable's {@code sable_ir::dump} (crates/sable-ir/src/dump.rs; the two must stay
 * identical, field for field). Values print as the reference's {@code PrimitiveValue.toString()}
 * with two exceptions, see {@link #v}.
 *
 * <pre>
 *   java -cp sbe-all.jar:classes IrDump xml SCHEMA.xml [OUT.sbeir]
 *       parse SCHEMA.xml with the reference (XInclude on), print its IR, and if OUT.sbeir is
 *       given write the reference's .sbeir file of it there
 *   java -cp sbe-all.jar:classes IrDump sbeir FILE.sbeir...
 *       decode each FILE.sbeir with the reference's IrDecoder and print its IR (one dump after
 *       another: each starts with its SCHEMA line)
 *   java -cp sbe-all.jar:classes IrDump compare EXPECTED.sbeir ACTUAL.sbeir
 *       decode both with the reference's IrDecoder and compare their token lists field by
 *       field, messages matched by template id; print each difference and exit 3 if any
 * </pre>
 *
 * Prints UTF-8 whatever the platform's encoding. Exits 0 on success, 1 when the reference fails
 * (message on stderr, naming the file), 2 on bad usage.
 */
public class IrDump {
    /** Text as Sable's dump writes it: null is empty; \, newline, CR and tab escaped. */
    static String s(Object o) {
        if (o == null) {
            return "";
        }
        return o.toString().replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t");
    }

    /**
     * A value as Sable's dump prints it: the reference's {@code PrimitiveValue.toString()},
     * except that a uint64 prints unsigned (the reference keeps it in a long and prints it
     * negative) and a byte array is decoded in the token's character encoding (the reference's
     * IrDecoder labels every byte array US-ASCII, whatever the token says).
     */
    static String v(PrimitiveValue value, Encoding e) {
        if (value == null) {
            return "";
        }
        if (value.representation() == PrimitiveValue.Representation.LONG && e.primitiveType() == PrimitiveType.UINT64) {
            return Long.toUnsignedString(value.longValue());
        }
        if (value.representation() == PrimitiveValue.Representation.BYTE_ARRAY) {
            String charset = e.characterEncoding() != null ? e.characterEncoding() : value.characterEncoding();
            if (charset != null) {
                try {
                    return s(new String(value.byteArrayValue(), charset));
                } catch (java.io.UnsupportedEncodingException ex) {
                    // Fall through to the reference's own rendering.
                }
            }
        }
        return s(value);
    }

    static void dump(List<Token> tokens, StringBuilder out) {
        for (Token t : tokens) {
            Encoding e = t.encoding();
            out.append(t.signal()).append(" name=").append(s(t.name()))
                .append(" ref=").append(s(t.referencedName()))
                .append(" id=").append(t.id()).append(" version=").append(t.version())
                .append(" deprecated=").append(t.deprecated())
                .append(" length=").append(t.encodedLength()).append(" offset=").append(t.offset())
                .append(" components=").append(t.componentTokenCount())
                .append(" presence=").append(e.presence())
                .append(" type=").append(e.primitiveType() == null ? "NONE" : e.primitiveType().name())
                .append(" order=").append(e.byteOrder())
                .append(" min=").append(v(e.minValue(), e)).append(" max=").append(v(e.maxValue(), e))
                .append(" null=").append(v(e.nullValue(), e)).append(" const=").append(v(e.constValue(), e))
                .append(" charset=").append(s(e.characterEncoding())).append(" epoch=").append(s(e.epoch()))
                .append(" timeUnit=").append(s(e.timeUnit())).append(" semanticType=").append(s(e.semanticType()))
                .append(" description=").append(s(t.description())).append('\n');
        }
    }

    static String dump(Ir ir) {
        StringBuilder out = new StringBuilder();
        out.append("SCHEMA package=").append(s(ir.packageName()))
            .append(" namespace=").append(s(ir.namespaceName()))
            .append(" id=").append(ir.id()).append(" version=").append(ir.version())
            .append(" semanticVersion=").append(s(ir.semanticVersion()))
            .append(" order=").append(ir.byteOrder()).append('\n');
        dump(ir.headerStructure().tokens(), out);
        for (List<Token> m : ir.messages()) {
            dump(m, out);
        }
        return out.toString();
    }

    static void usage() {
        System.err.println("usage: IrDump xml SCHEMA.xml [OUT.sbeir]");
        System.err.println("       IrDump sbeir FILE.sbeir...");
        System.err.println("       IrDump compare EXPECTED.sbeir ACTUAL.sbeir");
        System.exit(2);
    }

    /** Each field of a token, by name, with values as the reference prints them. */
    static Map<String, String> fields(Token t) {
        Encoding e = t.encoding();
        Map<String, String> f = new LinkedHashMap<>();
        f.put("signal", String.valueOf(t.signal()));
        f.put("name", t.name());
        f.put("referencedName", t.referencedName());
        f.put("description", t.description());
        f.put("id", String.valueOf(t.id()));
        f.put("version", String.valueOf(t.version()));
        f.put("deprecated", String.valueOf(t.deprecated()));
        f.put("encodedLength", String.valueOf(t.encodedLength()));
        f.put("offset", String.valueOf(t.offset()));
        f.put("componentTokenCount", String.valueOf(t.componentTokenCount()));
        f.put("presence", String.valueOf(e.presence()));
        f.put("primitiveType", String.valueOf(e.primitiveType()));
        f.put("byteOrder", String.valueOf(e.byteOrder()));
        f.put("minValue", String.valueOf(e.minValue()));
        f.put("maxValue", String.valueOf(e.maxValue()));
        f.put("nullValue", String.valueOf(e.nullValue()));
        f.put("constValue", String.valueOf(e.constValue()));
        f.put("characterEncoding", e.characterEncoding());
        f.put("epoch", e.epoch());
        f.put("timeUnit", e.timeUnit());
        f.put("semanticType", e.semanticType());
        return f;
    }

    static void compareTokens(String where, List<Token> expected, List<Token> actual, List<String> diffs) {
        if (expected.size() != actual.size()) {
            diffs.add(where + ": " + expected.size() + " tokens expected, " + actual.size() + " found");
        }
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            Map<String, String> e = fields(expected.get(i));
            Map<String, String> a = fields(actual.get(i));
            for (String key : e.keySet()) {
                if (!Objects.equals(e.get(key), a.get(key))) {
                    diffs.add(where + " token " + i + " (" + e.get("signal") + " " + e.get("name") + "): "
                        + key + " expected [" + e.get(key) + "] found [" + a.get(key) + "]");
                }
            }
        }
    }

    /** Compares two decoded IRs; returns the differences, empty when they are the same. */
    static List<String> compare(Ir expected, Ir actual) {
        List<String> diffs = new ArrayList<>();
        String[][] frame = {
            {"id", String.valueOf(expected.id()), String.valueOf(actual.id())},
            {"version", String.valueOf(expected.version()), String.valueOf(actual.version())},
            {"packageName", expected.packageName(), actual.packageName()},
            {"namespaceName", expected.namespaceName(), actual.namespaceName()},
            {"semanticVersion", expected.semanticVersion(), actual.semanticVersion()},
            {"byteOrder", String.valueOf(expected.byteOrder()), String.valueOf(actual.byteOrder())},
        };
        for (String[] f : frame) {
            if (!Objects.equals(f[1], f[2])) {
                diffs.add("schema " + f[0] + ": expected [" + f[1] + "] found [" + f[2] + "]");
            }
        }
        compareTokens("header", expected.headerStructure().tokens(), actual.headerStructure().tokens(), diffs);
        Map<Integer, List<Token>> actualById = new HashMap<>();
        for (List<Token> m : actual.messages()) {
            actualById.put(m.get(0).id(), m);
        }
        for (List<Token> m : expected.messages()) {
            int id = m.get(0).id();
            List<Token> other = actualById.remove(id);
            if (other == null) {
                diffs.add("message " + id + " (" + m.get(0).name() + ") is missing");
            } else {
                compareTokens("message " + id, m, other, diffs);
            }
        }
        for (List<Token> m : actualById.values()) {
            diffs.add("message " + m.get(0).id() + " (" + m.get(0).name() + ") is unexpected");
        }
        return diffs;
    }

    public static void main(String[] args) {
        if (args.length < 2 || !(args[0].equals("xml") && args.length <= 3 || args[0].equals("sbeir")
            || args[0].equals("compare") && args.length == 3)) {
            usage();
        }
        StringBuilder text = new StringBuilder();
        String current = args[1];
        try {
            if (args[0].equals("xml")) {
                System.setProperty("sbe.xinclude.aware", "true");
                MessageSchema schema = SbeTool.parseSchema(args[1]);
                Ir ir = new IrGenerator().generate(schema, null);
                text.append(dump(ir));
                if (args.length > 2) {
                    current = args[2];
                    try (IrEncoder enc = new IrEncoder(args[2], ir)) {
                        enc.encode();
                    }
                }
            } else if (args[0].equals("compare")) {
                Ir[] irs = new Ir[2];
                for (int i = 0; i < 2; i++) {
                    current = args[i + 1];
                    try (IrDecoder d = new IrDecoder(current)) {
                        irs[i] = d.decode();
                    }
                }
                List<String> diffs = compare(irs[0], irs[1]);
                if (!diffs.isEmpty()) {
                    System.err.println(String.join("\n", diffs));
                    System.exit(3);
                }
                int tokens = irs[0].headerStructure().tokens().size();
                for (List<Token> m : irs[0].messages()) {
                    tokens += m.size();
                }
                text.append("same: ").append(irs[0].messages().size()).append(" messages, ")
                    .append(tokens).append(" tokens\n");
            } else {
                for (int i = 1; i < args.length; i++) {
                    current = args[i];
                    try (IrDecoder d = new IrDecoder(args[i])) {
                        text.append(dump(d.decode()));
                    }
                }
            }
        } catch (Throwable t) {
            System.err.println("IrDump " + args[0] + " " + current + ": " + t);
            t.printStackTrace(System.err);
            System.exit(1);
        }
        byte[] out = text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        System.out.write(out, 0, out.length);
        System.out.flush();
    }
}
