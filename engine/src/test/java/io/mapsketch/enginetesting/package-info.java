/**
 * Support for the engine's tests of every family: the main classes of child JVMs that share sketch
 * files with a test, the keys both sides derive from the arguments they share, QuickTheories
 * generators of keys, and checks restated from the file format. The engine's test classes are compiled
 * into the engine module, so this package cannot be the memory module's {@code io.mapsketch.testing}
 * (which these tests reach through that module's test jar) nor lie under it: a package of that name in
 * the engine module would hide the other.
 */
package io.mapsketch.enginetesting;
