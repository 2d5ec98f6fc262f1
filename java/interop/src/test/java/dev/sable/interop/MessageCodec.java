package dev.sable.interop;

/** One library's codec for one message type of one schema, over byte arrays. */
interface MessageCodec<T>
{
    /** A name for test reports: library and memory kind. */
    String name();

    /** The message, header included, as encoded. */
    byte[] encode(T value);

    /** Every field of the message at the start of bytes (header included). */
    T decode(byte[] bytes);
}
