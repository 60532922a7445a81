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
}
