package io.mapsketch.memory;

/**
 * Sketch kind ids for this module's tests, numbered as the engine numbers its kinds; this module
 * stores and compares them as plain ids.
 */
final class TestKinds {

    static final int BLOOM = 1;
    static final int COUNT_MIN = 6;
    static final int TOP_K = 7;
    static final int HYPERLOGLOG = 8;
    static final int MINHASH = 9;

    private TestKinds() {}
}
