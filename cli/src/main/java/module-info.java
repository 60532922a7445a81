/** The {@code mapsketch} command: create, inspect and query sketch files, and the demo. */
module io.mapsketch.cli {
    requires io.mapsketch.engine;
}
