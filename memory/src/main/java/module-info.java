/**
 * Sketch files and regions: the header page, mapping, anonymous regions, atomic word access
 * and the writer lock. This module knows nothing of any sketch's logic.
 */
module io.mapsketch.memory {
    exports io.mapsketch.memory;
}
