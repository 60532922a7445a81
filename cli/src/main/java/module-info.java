/** The {@code mapsketch} command: create, inspect, update, query and merge sketch files, and the demo. */
module io.mapsketch.cli {
    requires io.mapsketch.engine;
    // info and verify read a file's header, live line and checksum below the API: the memory module and the
    // engine's shared mechanics are exported to this module alone.
    requires io.mapsketch.memory;
    // The kernels' implementation property, which a command line of a few keys sets (Main).
    requires io.mapsketch.kernels;
    requires info.picocli;
    requires java.logging;

    // picocli reads the command classes' annotations and sets their fields by reflection.
    opens io.mapsketch.cli to
            info.picocli;
}
