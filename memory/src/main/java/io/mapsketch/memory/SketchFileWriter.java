package io.mapsketch.memory;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes a new sketch file so that it appears at its name complete or not at all: the header (with the
 * payload's checksum, sealed, from format version 4) and the payload, every byte of it the sketch kind's
 * empty value (zero for most kinds), then whatever the creator's preparation writes, go to a temporary file in the same directory, which is forced and
 * then linked (or, when overwriting, renamed) into place. The temporary file's name carries the creator's pid
 * ({@code .NAME.PID.RANDOM.creating}); a creator killed half-way leaves it behind, and the next
 * creation of the same name deletes the leftovers of creators that are no longer alive. Permissions
 * are set on the temporary file before it gets its name, so the file never appears with other
 * permissions than those asked for. A file that writers have open is not replaced unless the caller
 * says so ({@link CreateFlag#REPLACE_IN_USE}).
 */
final class SketchFileWriter {

    private static final int FILL_CHUNK = 1 << 20;
    private static final String TEMPORARY_SUFFIX = ".creating";
    private static final Set<PosixFilePermission> READABLE_BY_ALL = PosixFilePermissions.fromString("rw-r--r--");
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private SketchFileWriter() {}

    static void writeNew(
            Path file,
            SketchHeader header,
            byte payloadFill,
            SketchRegions.Preparation preparation,
            CreateFlag... options)
            throws IOException {
        writeNew(
                file,
                temporary -> {
                    write(temporary, header, payloadFill, file);
                    if (preparation != null) {
                        preparation.prepare(temporary);
                        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                            channel.force(true);
                        }
                    }
                },
                options);
    }

    /**
     * Writes a new file whose every byte {@code contents} writes into the temporary file and forces to the
     * device, then gives it its permissions and its name, as {@link #writeNew(Path, SketchHeader, byte,
     * SketchRegions.Preparation, CreateFlag...)} does.
     */
    static void writeNew(Path file, SketchRegions.Preparation contents, CreateFlag... options) throws IOException {
        boolean replaceInUse = Arrays.asList(options).contains(CreateFlag.REPLACE_IN_USE);
        boolean overwrite = replaceInUse || Arrays.asList(options).contains(CreateFlag.OVERWRITE_EXISTING);
        Path target = file.toAbsolutePath();
        if (!overwrite && Files.exists(target)) {
            throw alreadyExists(file);
        }
        deleteAbandonedTemporaries(target);
        Path temporary = Files.createTempFile(
                target.getParent(),
                temporaryPrefix(target) + ProcessHandle.current().pid() + ".",
                TEMPORARY_SUFFIX);
        try {
            contents.prepare(temporary);
            if (Files.getFileStore(temporary).supportsFileAttributeView(PosixFileAttributeView.class)) {
                Files.setPosixFilePermissions(
                        temporary,
                        Arrays.asList(options).contains(CreateFlag.OWNER_ONLY) ? OWNER_ONLY : READABLE_BY_ALL);
            }
            if (overwrite) {
                replace(temporary, target, file, replaceInUse);
            } else {
                linkWithoutReplacing(temporary, target, file);
            }
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    private static String temporaryPrefix(Path target) {
        return "." + target.getFileName() + ".";
    }

    /** Deletes {@code .NAME.PID.RANDOM.creating} files of this target whose creating process is gone. */
    private static void deleteAbandonedTemporaries(Path target) throws IOException {
        Pattern ours = Pattern.compile(
                Pattern.quote(temporaryPrefix(target)) + "(\\d{1,18})\\.\\d+" + Pattern.quote(TEMPORARY_SUFFIX));
        try (DirectoryStream<Path> candidates = Files.newDirectoryStream(
                target.getParent(),
                path -> ours.matcher(path.getFileName().toString()).matches())) {
            for (Path candidate : candidates) {
                Matcher name = ours.matcher(candidate.getFileName().toString());
                if (name.matches()
                        && ProcessHandle.of(Long.parseLong(name.group(1))).isEmpty()) {
                    Files.deleteIfExists(candidate);
                }
            }
        }
    }

    /**
     * Writes the header and every payload byte (the fill value), so that the file system has allocated
     * all of its blocks before anything maps it: a later store into the mapping cannot meet a full disk.
     */
    private static void write(Path temporary, SketchHeader header, byte payloadFill, Path file) throws IOException {
        byte[] page = new byte[SketchFileLayout.HEADER_LENGTH];
        HeaderCodec.writeNew(header, MemorySegment.ofArray(page));
        if (PayloadChecksum.kept(header)) {
            PayloadChecksum.writeForFill(MemorySegment.ofArray(page), header.payloadLength(), payloadFill);
        }
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
            writeFully(channel, ByteBuffer.wrap(page), 0);
            ByteBuffer fill = ByteBuffer.allocateDirect(FILL_CHUNK);
            if (payloadFill != 0) {
                MemorySegment.ofBuffer(fill).fill(payloadFill);
            }
            long end = header.fileLength();
            for (long position = header.payloadOffset(); position < end; position += FILL_CHUNK) {
                fill.clear().limit((int) Math.min(FILL_CHUNK, end - position));
                writeFully(channel, fill, position);
            }
            channel.force(true);
        } catch (IOException e) {
            throw new IOException(
                    "cannot create " + file + ": writing its " + header.fileLength() + " bytes failed ("
                            + e.getMessage() + "); nothing was left under that name",
                    e);
        }
    }

    static void writeFully(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
        long at = position;
        while (buffer.hasRemaining()) {
            at += channel.write(buffer, at);
        }
    }

    /**
     * Renames the new file over the old one. Unless a file in use may be replaced, the rename happens
     * inside the old file's gate with its writer lock held exclusively: no writer has the old file
     * open, and a writer that opens it meanwhile finds, once it gets the gate, that the path names the
     * new file, and opens that one ({@link OpenFileTable}).
     */
    private static void replace(Path temporary, Path target, Path file, boolean inUse) throws IOException {
        OpenFileTable.Attachment guard = inUse ? null : guardExisting(target, file);
        try {
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            if (guard != null) {
                OpenFileTable.detach(guard);
            }
        }
    }

    /** Attaches to the file being replaced as its only writer, or returns {@code null} if there is none to guard. */
    private static OpenFileTable.Attachment guardExisting(Path target, Path file) throws IOException {
        try {
            return OpenFileTable.attach(target, RegionMode.EXCLUSIVE);
        } catch (NoSuchFileException | AccessDeniedException noWriterCanHaveIt) {
            return null;
        } catch (FileFault fault) {
            if (fault.reason() != FileFault.Reason.LOCKED) {
                throw fault;
            }
            throw new FileFault(
                    FileFault.Reason.LOCKED,
                    file,
                    "cannot replace it while writers have it open ("
                            + WriterLockHolders.describe(target)
                            + "): their later updates would go to the replaced file."
                            + " Close them first, or pass CreateOption.REPLACE_IN_USE to replace it anyway; each of them"
                            + " then fails at its next force() or close()");
        }
    }

    /** A hard link fails if the name exists, so two creators racing cannot both win. */
    private static void linkWithoutReplacing(Path temporary, Path target, Path file) throws IOException {
        try {
            Files.createLink(target, temporary);
        } catch (FileAlreadyExistsException e) {
            throw alreadyExists(file);
        } catch (UnsupportedOperationException e) {
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
        }
    }

    private static FileAlreadyExistsException alreadyExists(Path file) {
        return new FileAlreadyExistsException(
                file.toString(), null, "a file exists there; pass CreateOption.OVERWRITE_EXISTING to replace it");
    }
}
