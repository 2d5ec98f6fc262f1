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
        System.exit(2);
    }

    public static void main(String[] args) {
        if (args.length < 2 || !(args[0].equals("xml") && args.length <= 3 || args[0].equals("sbeir"))) {
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
