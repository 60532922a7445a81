package io.mapsketch.memory;

/**
 * Linux {@code errno} values (the same on x86-64 and AArch64) that {@link NativeFiles} tests for or
 * names in its messages.
 */
final class Errno {

    static final int EPERM = 1;
    static final int ENOENT = 2;
    static final int EINTR = 4;
    static final int EAGAIN = 11;
    static final int EACCES = 13;
    static final int EINVAL = 22;
    static final int ENOSPC = 28;
    static final int EOPNOTSUPP = 95;
    static final int EDQUOT = 122;

    private Errno() {}

    /**
     * Names an errno and says what it means, for example {@code "ENOSPC (no space left on device)"}.
     *
     * @param errno the value
     * @return its symbolic name and meaning, or {@code "errno N"} for one not listed here
     */
    static String describe(int errno) {
        return switch (errno) {
            case EPERM -> "EPERM (operation not permitted)";
            case ENOENT -> "ENOENT (no such file or directory)";
            case EINTR -> "EINTR (interrupted system call)";
            case 5 -> "EIO (input/output error)";
            case 6 -> "ENXIO (no such device or address)";
            case 9 -> "EBADF (bad file descriptor)";
            case EAGAIN -> "EAGAIN (resource temporarily unavailable)";
            case 12 -> "ENOMEM (cannot allocate memory)";
            case EACCES -> "EACCES (permission denied)";
            case 16 -> "EBUSY (device or resource busy)";
            case 19 -> "ENODEV (no such device)";
            case 20 -> "ENOTDIR (not a directory)";
            case 21 -> "EISDIR (is a directory)";
            case EINVAL -> "EINVAL (invalid argument)";
            case 23 -> "ENFILE (too many open files in system)";
            case 24 -> "EMFILE (too many open files)";
            case 26 -> "ETXTBSY (text file busy)";
            case 27 -> "EFBIG (file too large)";
            case ENOSPC -> "ENOSPC (no space left on device)";
            case 30 -> "EROFS (read-only file system)";
            case 36 -> "ENAMETOOLONG (file name too long)";
            case 37 -> "ENOLCK (no locks available)";
            case 38 -> "ENOSYS (function not implemented)";
            case 40 -> "ELOOP (too many levels of symbolic links)";
            case 75 -> "EOVERFLOW (value too large for defined data type)";
            case EOPNOTSUPP -> "EOPNOTSUPP (operation not supported)";
            case 116 -> "ESTALE (stale file handle)";
            case EDQUOT -> "EDQUOT (disk quota exceeded)";
            default -> "errno " + errno;
        };
    }
}
