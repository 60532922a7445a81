package io.mapsketch;

import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.cardinality.HyperLogLogTable;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.frequency.CountMinTable;
import io.mapsketch.frequency.TopK;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.BloomTable;
import io.mapsketch.membership.CountingBloomFilter;
import io.mapsketch.membership.ScalableBloomFilter;
import io.mapsketch.similarity.MinHash;
import java.util.List;
import java.util.Objects;

/**
 * A sketch that merges with another of its kind: Bloom filters (classic, blocked, counting,
 * scalable), Count-Min and Top-K, HyperLogLog and MinHash, and the tables of HyperLogLogs, of
 * blocked Bloom filters and of Count-Min sketches (key by key). Cuckoo filters and SimHash tables do
 * not merge. Each family's {@code merge} states its own algebra (OR, counter sum, register max,
 * slot min, re-ranked candidates) and cost; every one of them keeps this contract.
 *
 * @param <S> the sketch's own type, the type it merges with
 */
public sealed interface Mergeable<S extends Mergeable<S>> extends Sketch
        permits BloomFilter,
                BlockedBloomFilter,
                CountingBloomFilter,
                ScalableBloomFilter,
                CountMinSketch,
                TopK,
                HyperLogLog,
                HyperLogLogTable,
                BloomTable,
                CountMinTable,
                MinHash {

    /**
     * Merges another sketch into this one: afterwards this sketch answers for the union of the items
     * added to both (for frequency sketches, the sum of their streams) with its family's error at the
     * combined count, and {@link #itemsAdded()} has grown by the other's. For most families it is then
     * exactly the sketch those items would have built here; the family's {@code merge} says where it is
     * not (conservative Count-Min counters, Top-K candidates, a scalable filter's links). The other
     * sketch is not changed.
     *
     * <p>Error direction: the family's, never a new one (a filter gains no false negative, a Count-Min
     * estimate never falls below the true count). Cost: one pass over both payloads, plus what the
     * family's {@code merge} states.
     *
     * @param other a sketch of this kind, shape, hash scheme and seed; not modified
     * @throws IncompatibleSketchException naming the first field that differs (kind, hash scheme,
     *     seed or a parameter of the shape); nothing is merged
     * @throws IllegalArgumentException if the merged sketch would pass a limit of its family (a
     *     frequency sketch's total weight); nothing is merged
     * @throws IllegalStateException if this sketch is read-only or either sketch is closed
     */
    void merge(S other);

    /**
     * Merges several sketches into this one, as {@link #merge} of each in turn would; every one is checked
     * ({@link #requireMergeable}) before any is merged. Tables merge them together, key by key, writing each
     * key's sketch once whatever the number of sources; other kinds merge them in turn.
     *
     * @param others sketches of this kind, shape, hash scheme and seed; not modified
     * @throws IncompatibleSketchException as {@link #merge}, for the first that differs; nothing is merged
     * @throws IllegalArgumentException as {@link #merge}; a limit the merged state reaches stops the merge
     *     with the sources before it merged (tables say what they merge before refusing)
     * @throws IllegalStateException as {@link #merge}; a closed source is refused before any is merged
     */
    default void mergeAll(List<? extends S> others) {
        List<? extends S> sources = List.copyOf(others);
        requireMergeableAll(sources);
        sources.forEach(this::merge);
    }

    /**
     * Checks that {@link #mergeAll} would take every one of {@code others}, without merging: each is open and
     * passes {@link #requireMergeable}. Cost: a comparison of two headers per source.
     *
     * @param others sketches of this kind
     * @throws IncompatibleSketchException as {@link #requireMergeable}, for the first that differs
     * @throws IllegalStateException if one of them is closed, naming its place in the list
     */
    default void requireMergeableAll(List<? extends S> others) {
        for (int i = 0; i < others.size(); i++) {
            S other = Objects.requireNonNull(others.get(i), "others[" + i + "]");
            if (other.isClosed()) {
                throw new IllegalStateException("others[" + i + "] is closed; nothing was merged");
            }
            requireMergeable(other);
        }
    }

    /**
     * {@link #mergeAll} of sketches known only as {@link Sketch}es, such as {@link Sketch#open} returns.
     *
     * @param others sketches of this kind, shape, hash scheme and seed; not modified
     * @throws IncompatibleSketchException naming the kind if one is of another kind, or as {@link #mergeAll}
     */
    default void mergeAllSketches(List<? extends Sketch> others) {
        mergeAll(others.stream().map(this::sameKind).toList());
    }

    /**
     * Tells whether merging is idempotent for this kind: a sketch merged twice, or into itself, answers as
     * if merged once. True for the merges that take an OR, a maximum or a minimum (Bloom filters other than
     * counting ones, HyperLogLog, MinHash); false for sums (Count-Min, Top-K, counting Bloom), where each
     * merge adds the other's counts again.
     *
     * @return {@code true} if a repeated merge changes nothing
     */
    default boolean mergeIsIdempotent() {
        return false;
    }

    /**
     * Checks that {@link #merge} would take {@code other}, without merging: the refusals of its kind, shape,
     * hash scheme and seed. What depends on the merged state (a frequency sketch's total weight, a table's
     * room) is checked by {@code merge} alone. Several sources can so be checked before any is merged.
     * Cost: a comparison of the two headers.
     *
     * @param other a sketch of this kind
     * @throws IncompatibleSketchException as {@link #merge}, naming the first field that differs
     */
    void requireMergeable(S other);

    /**
     * {@link #requireMergeable} of a sketch known only as a {@link Sketch}.
     *
     * @param other any sketch
     * @throws IncompatibleSketchException naming the kind if it is of another kind, or as {@link #requireMergeable}
     */
    default void requireMergeableSketch(Sketch other) {
        requireMergeable(sameKind(other));
    }

    /**
     * Merges a sketch known only as a {@link Sketch}, such as one {@link Sketch#open} returned: the
     * same as {@link #merge} when it is of this sketch's kind, refused otherwise.
     *
     * @param other a sketch of this kind, shape, hash scheme and seed; not modified
     * @throws IncompatibleSketchException naming the kind if it is of another kind, or as {@link #merge}
     * @throws IllegalArgumentException as {@link #merge}
     * @throws IllegalStateException as {@link #merge}
     */
    default void mergeSketch(Sketch other) {
        merge(sameKind(other));
    }

    /** {@code other} as this sketch's type, refused naming the kinds if it is of another kind. */
    private S sameKind(Sketch other) {
        Objects.requireNonNull(other, "other");
        if (other.kind() != kind()) {
            throw new IncompatibleSketchException("kind", kind(), other.kind());
        }
        // Each kind is stored by one final class, so a sketch of this kind is of this sketch's type.
        @SuppressWarnings("unchecked")
        S sameKind = (S) other;
        return sameKind;
    }
}
