package io.mapsketch.memory;

/**
 * Which file a path or descriptor names: its device and inode, as Linux reports them.
 *
 * @param deviceMajor the major number of the file system's device
 * @param deviceMinor its minor number
 * @param inode the inode number
 */
record FileIdentity(long deviceMajor, long deviceMinor, long inode) {

    /**
     * The identity of a {@code st_dev} as the C library encodes it ({@code gnu_dev_major},
     * {@code gnu_dev_minor}) and an inode.
     */
    static FileIdentity of(long stDev, long inode) {
        long major = ((stDev >>> 8) & 0xfff) | ((stDev >>> 32) & 0xfffff000L);
        long minor = (stDev & 0xff) | ((stDev >>> 12) & 0xffffff00L);
        return new FileIdentity(major, minor, inode);
    }

    // Written out, not the record's own: those are bootstrapped at run time, milliseconds of a single
    // command's start-up (docs/cli.md, "Start-up of a single command").
    @Override
    public boolean equals(Object other) {
        return other instanceof FileIdentity that
                && deviceMajor == that.deviceMajor
                && deviceMinor == that.deviceMinor
                && inode == that.inode;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(inode) * 31 + Long.hashCode(deviceMajor << 32 | deviceMinor);
    }
}
