package io.mapsketch.memory;

import java.nio.file.Path;

/**
 * What a path or descriptor names, as far as opening a sketch file needs to know.
 *
 * @param type what kind of file it is
 * @param identity which file it is: a {@link FileIdentity} where the operating system tells it, else
 *     another key equal for the same file
 * @param size its length in bytes
 * @param allocatedBytes bytes of storage allocated to it, or -1 if unknown
 */
record FileStatus(Type type, Object identity, long size, long allocatedBytes) {

    /** The kinds of file a path can name. */
    enum Type {
        REGULAR("a regular file"),
        DIRECTORY("a directory"),
        FIFO("a FIFO (named pipe)"),
        SOCKET("a socket"),
        CHARACTER_DEVICE("a character device"),
        BLOCK_DEVICE("a block device"),
        SYMBOLIC_LINK("a symbolic link"),
        OTHER("not a regular file");

        private final String description;

        Type(String description) {
            this.description = description;
        }

        /** The type in the {@code S_IFMT} bits of a POSIX file mode. */
        static Type ofMode(int mode) {
            return switch (mode & 0xF000) {
                case 0x8000 -> REGULAR;
                case 0x4000 -> DIRECTORY;
                case 0x1000 -> FIFO;
                case 0xC000 -> SOCKET;
                case 0x2000 -> CHARACTER_DEVICE;
                case 0x6000 -> BLOCK_DEVICE;
                case 0xA000 -> SYMBOLIC_LINK;
                default -> OTHER;
            };
        }

        @Override
        public String toString() {
            return description;
        }
    }

    /**
     * Refuses anything but a regular file, before anything is read from it or mapped.
     *
     * @param file the path, for the message
     * @throws FileFault {@code CORRUPT}, naming the path and what it is instead
     */
    void requireRegularFile(Path file) throws FileFault {
        if (type != Type.REGULAR) {
            throw new FileFault(
                    FileFault.Reason.CORRUPT,
                    file,
                    "is " + type + ", not a regular file; a sketch file"
                            + " is a regular file"
                            + (type == Type.DIRECTORY
                                    ? " (a scalable Bloom filter is a directory: open it" + " as one)"
                                    : ""));
        }
    }
}
