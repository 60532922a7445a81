package io.mapsketch.memory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A sketch file that cannot be created, opened or kept as asked. The {@link #reason()} names the
 * class of fault; the message names the file and, where a header field is at fault, the field, the
 * value expected and the value found. The engine reports each reason as an exception type of its
 * API, with the same message.
 */
public final class FileFault extends IOException {

    private static final long serialVersionUID = 1L;

    /** The classes of fault. */
    public enum Reason {
        /**
         * Not a sketch file (a directory, FIFO or device included) or a damaged one: a wrong magic, a header
         * checksum that does not match, a payload that does not fit the file, an impossible field, a length
         * changed under the mapping. Nothing in it is trusted; it is not mapped.
         */
        CORRUPT,
        /** A valid sketch file that this build cannot use: a newer format version or an unknown hash scheme. */
        INCOMPATIBLE,
        /** Another writer holds the file in a mode that excludes the one asked for. */
        LOCKED,
        /** The path a writer opened names another file now, or none; what it added is only in the file it maps. */
        REPLACED,
        /** The file system cannot give a writer's file with holes the blocks it needs; it is not mapped. */
        STORAGE
    }

    /** The class of fault. */
    private final Reason reason;
    /** The file, or {@code null} for an anonymous region. */
    private final transient Path file;
    /** What is wrong, without the file's name. */
    private final String detail;

    /**
     * Creates a fault about one file.
     *
     * @param reason the class of fault
     * @param file the file at fault, or {@code null} for an anonymous region
     * @param detail what is wrong, without the file's name (the message prefixes it)
     */
    public FileFault(Reason reason, Path file, String detail) {
        super(describe(file) + ": " + detail);
        this.reason = Objects.requireNonNull(reason, "reason");
        this.file = file;
        this.detail = detail;
    }

    /**
     * Returns the class of fault.
     *
     * @return the reason
     */
    public Reason reason() {
        return reason;
    }

    /**
     * Returns the file at fault.
     *
     * @return the path as given, or {@code null} for an anonymous region
     */
    public Path file() {
        return file;
    }

    /**
     * Returns what is wrong, as the message says it after the file's name.
     *
     * @return the detail
     */
    public String detail() {
        return detail;
    }

    /** How messages name a region: its file, or that it is anonymous. */
    static String describe(Path file) {
        return file == null ? "anonymous sketch region" : "sketch file " + file;
    }
}
