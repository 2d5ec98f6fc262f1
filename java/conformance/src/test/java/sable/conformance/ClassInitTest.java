package sable.conformance;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every generated class of every conformance schema, in both buffer flavours, initialises: the
 * static state the generator emits (null images of composites, enum tables, support constants)
 * must not throw when a class is first used.
 */
class ClassInitTest
{
    private static final Path CODECS = Path.of("target", "generated-test-sources", "sable", "codecs");

    @Test
    void everyGeneratedClassInitialises() throws IOException
    {
        final List<String> classes;
        try (Stream<Path> files = Files.walk(CODECS))
        {
            classes = files
                .filter(file -> file.toString().endsWith(".java"))
                .map(file -> CODECS.relativize(file).toString().replace(".java", "").replace(java.io.File.separatorChar, '.'))
                .toList();
        }
        assertTrue(classes.size() > 100, "generated classes found: " + classes.size());
        final ClassLoader loader = ClassInitTest.class.getClassLoader();
        for (final String name : classes)
        {
            assertDoesNotThrow(() -> Class.forName(name, true, loader), name);
        }
    }
}
