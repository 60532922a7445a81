/** The {@code mapsketch} command: create, inspect, update, query and merge sketch files, and the demo. */
module io.mapsketch.cli {
    requires io.mapsketch.engine;
    requires info.picocli;
    requires java.logging;

    // picocli reads the command classes' annotations and sets their fields by reflection.
    opens io.mapsketch.cli to info.picocli;
}
