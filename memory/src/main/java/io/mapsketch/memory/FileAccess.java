package io.mapsketch.memory;

import java.io.IOException;
import java.nio.file.Path;

/**
 * How this JVM opens, checks, locks and reserves sketch files, chosen once: through the operating
 * system ({@link NativeFileAccess}) on Linux where this module may call native code, otherwise
 * with Java's file API ({@link JavaFileAccess}), after one notice that says what that leaves
 * unprotected and which flag grants native access.
 */
abstract sealed class FileAccess permits NativeFileAccess, JavaFileAccess {

    /**
     * Returns the file access of this JVM.
     *
     * @return the native access if it can be used, else the Java one
     */
    static FileAccess get() {
        return Chosen.ACCESS;
    }

    /**
     * Opens a regular file for a region, refusing anything else before a byte of it is read.
     *
     * @param file the path; symbolic links are followed
     * @param writable whether the region will write
     * @return the opened file
     * @throws FileFault {@code CORRUPT} if the path names a directory, FIFO, socket or device
     * @throws java.nio.file.NoSuchFileException if there is no such file
     * @throws java.nio.file.AccessDeniedException if permission is denied
     * @throws IOException if it cannot be opened for another reason
     */
    abstract OpenedFile open(Path file, boolean writable) throws IOException;

    /**
     * Returns the status of what a path names now, links followed, without opening it.
     *
     * @param file the path
     * @return its status
     * @throws java.nio.file.NoSuchFileException if there is no such file
     * @throws IOException if it cannot be examined
     */
    abstract FileStatus status(Path file) throws IOException;

    /** The flag that grants this module native access on the command line. */
    private static String nativeAccessFlag() {
        String module = FileAccess.class.getModule().getName();
        return "--enable-native-access=" + (module == null ? "ALL-UNNAMED" : module);
    }

    private static FileAccess choose() {
        String reason;
        try {
            return new NativeFileAccess(NativeFiles.load());
        } catch (IllegalCallerException denied) {
            reason = "native access is denied (" + denied.getMessage() + ")";
        } catch (UnsupportedOperationException unsupported) {
            reason = unsupported.getMessage();
        }
        Notices.warn("sketch files use Java's file locks, not the operating system's, because " + reason
                + ": another descriptor's close in this JVM (such as Files.readAllBytes of a sketch file)"
                + " releases a writer's lock, a path is checked before it is opened rather than after, and"
                + " the blocks of sparse sketch files are not reserved. To grant native access, pass "
                + nativeAccessFlag());
        return new JavaFileAccess();
    }

    /** Lazy holder: the access is chosen at the first open. */
    private static final class Chosen {
        static final FileAccess ACCESS = choose();
    }
}
