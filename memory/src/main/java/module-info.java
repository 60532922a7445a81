/**
 * Sketch files and regions: the header page, mapping, anonymous regions, atomic word access
 * and the writer lock. This module knows nothing of any sketch's logic. Its vocabulary (region
 * modes, create flags, file faults) is its own; the engine speaks to users in its API's and
 * translates in one place, so this package is exported only to the engine and to the command,
 * whose {@code info} reads a file's header and live line.
 */
// The modules exported to are built after this one.
@SuppressWarnings("module")
module io.mapsketch.memory {
    exports io.mapsketch.memory to
            io.mapsketch.engine,
            io.mapsketch.cli;
}
