package sable.driver;

import org.agrona.concurrent.UnsafeBuffer;

import sable.driver.codecs.SbeSchemaDecoder;

/** The driver's buffer flavour: the Agrona codecs, over the message's bytes. */
final class Message
{
    private Message()
    {
    }

    /**
     * Decodes one message and appends its canonical JSON.
     *
     * @param decoder the schema-level decoder.
     * @param bytes the message.
     * @param builder the destination.
     */
    static void appendJson(final SbeSchemaDecoder decoder, final byte[] bytes, final StringBuilder builder)
    {
        decoder.appendJson(new UnsafeBuffer(bytes), 0, bytes.length, builder);
    }
}
