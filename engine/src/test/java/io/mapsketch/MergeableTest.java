package io.mapsketch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.cardinality.HyperLogLogTable;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.frequency.CountMinTable;
import io.mapsketch.frequency.FrequencySketch;
import io.mapsketch.frequency.TopK;
import io.mapsketch.internal.KeyTable;
import io.mapsketch.internal.SketchFacts;
import io.mapsketch.internal.SketchInternals;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.BloomTable;
import io.mapsketch.membership.CountingBloomFilter;
import io.mapsketch.membership.CuckooFilter;
import io.mapsketch.membership.MembershipFilter;
import io.mapsketch.membership.ScalableBloomFilter;
import io.mapsketch.similarity.MinHash;
import io.mapsketch.similarity.SimHash;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The merge contract: every kind that merges is {@link Mergeable}; merging through the contract
 * ({@link Mergeable#mergeSketch}, the other sketch given only as a {@link Sketch}) leaves exactly what
 * the family's own {@code merge} leaves, and that is the sketch of the union of both key lists. The
 * contract refuses another kind, seed or shape with {@link IncompatibleSketchException} naming it,
 * changing nothing, and a read-only or closed sketch with {@link IllegalStateException}. Merging several
 * at once ({@link Mergeable#mergeAll}) is merging each in turn, and a misfit anywhere among them is refused
 * before any is merged.
 */
class MergeableTest {

    /** Keys that no generated list is asked to hold, asked about as well. */
    private static final long[] PROBES =
            LongStream.range(0, 300).map(i -> i * 0x9E3779B97F4A7C15L).toArray();

    /**
     * A kind that merges: its builder (sized so that the union of two generated lists fits: one link of a
     * scalable filter, every key a Top-K candidate), how keys are added, and its state after the keys
     * were added: its items counter with its payload's bytes, or with its answers about them where the
     * payload also holds where things were put (a Top-K candidate table, a scalable filter's manifest); and
     * a builder of another shape, which the merge refuses.
     */
    record Kind<S extends Mergeable<S>>(
            String name,
            Supplier<SketchBuilder<?, S>> builder,
            BiConsumer<S, long[]> add,
            BiFunction<S, long[], Object> state,
            Supplier<SketchBuilder<?, S>> otherShape) {

        S create(OpenMode mode) {
            return builder.get().createAnonymous(mode);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** The keys of a table kind: a key's number is a generated key's low bits. */
    private static final int TABLE_KEYS = 8;

    private static final List<Kind<?>> KINDS = List.of(
            new Kind<>(
                    "classic",
                    () -> BloomFilter.builder().expectedItems(1_000).falsePositiveRate(0.01),
                    MembershipFilter::addAll,
                    MergeableTest::payload,
                    () -> BloomFilter.builder().expectedItems(2_000).falsePositiveRate(0.01)),
            new Kind<>(
                    "blocked",
                    () -> BlockedBloomFilter.builder().expectedItems(1_000).falsePositiveRate(0.01),
                    MembershipFilter::addAll,
                    MergeableTest::payload,
                    () -> BlockedBloomFilter.builder().expectedItems(5_000).falsePositiveRate(0.01)),
            new Kind<>(
                    "counting",
                    () -> CountingBloomFilter.builder().expectedItems(1_000).falsePositiveRate(0.01),
                    MembershipFilter::addAll,
                    MergeableTest::payload,
                    () -> CountingBloomFilter.builder().expectedItems(2_000).falsePositiveRate(0.01)),
            new Kind<>(
                    "scalable",
                    () -> ScalableBloomFilter.builder().expectedItems(1_000).falsePositiveRate(0.01),
                    MembershipFilter::addAll,
                    (filter, keys) ->
                            List.of(filter.itemsAdded(), filter.links(), Arrays.toString(present(filter, keys))),
                    () -> ScalableBloomFilter.builder().expectedItems(1_000).falsePositiveRate(0.001)),
            new Kind<>(
                    "countmin",
                    () -> CountMinSketch.builder().epsilon(0.01).delta(0.01),
                    FrequencySketch::addAll,
                    (sketch, keys) -> List.of(payload(sketch, keys), sketch.totalWeight()),
                    () -> CountMinSketch.builder().epsilon(0.001).delta(0.01)),
            new Kind<>(
                    "topk",
                    () -> TopK.builder().k(1_000).epsilon(0.01).delta(0.01),
                    FrequencySketch::addAll,
                    (top, keys) -> List.of(
                            top.itemsAdded(),
                            top.totalWeight(),
                            top.top(),
                            Arrays.toString(Arrays.stream(asked(keys))
                                    .map(top::estimate)
                                    .toArray())),
                    () -> TopK.builder().k(1_000).epsilon(0.01).delta(0.001)),
            new Kind<>(
                    "hll",
                    () -> HyperLogLog.builder().precision(10),
                    HyperLogLog::addAll,
                    MergeableTest::payload,
                    () -> HyperLogLog.builder().precision(11)),
            new Kind<>(
                    "minhash",
                    () -> MinHash.builder().rows(2).signatureLength(64),
                    (minHash, keys) -> {
                        minHash.addAll(0, keys);
                        minHash.addAll(
                                1,
                                Arrays.stream(keys)
                                        .filter(key -> (key & 1) == 0)
                                        .toArray());
                    },
                    MergeableTest::payload,
                    () -> MinHash.builder().rows(2).signatureLength(128)),
            new Kind<>(
                    "hll-table",
                    () -> HyperLogLogTable.builder()
                            .precision(8)
                            .capacity(TABLE_KEYS)
                            .bytesPerKey(1_024),
                    MergeableTest::addToKeys,
                    (table, keys) -> List.of(
                            table.itemsAdded(),
                            table.keyCount(),
                            tableAnswers(key -> Arrays.toString(table.registers(key)))),
                    () -> HyperLogLogTable.builder()
                            .precision(9)
                            .capacity(TABLE_KEYS)
                            .bytesPerKey(1_024)),
            new Kind<>(
                    "bloom-table",
                    () -> BloomTable.builder()
                            .capacity(TABLE_KEYS)
                            .expectedItemsPerKey(100)
                            .falsePositiveRate(0.01),
                    MergeableTest::addToKeys,
                    (table, keys) -> List.of(
                            table.itemsAdded(),
                            table.keyCount(),
                            tableAnswers(key -> Arrays.toString(table.filterWords(key)))),
                    () -> BloomTable.builder()
                            .capacity(TABLE_KEYS)
                            .expectedItemsPerKey(200)
                            .falsePositiveRate(0.01)),
            new Kind<>(
                    "count-min-table",
                    () -> CountMinTable.builder().capacity(TABLE_KEYS).dimensions(50, 4),
                    MergeableTest::addToKeys,
                    (table, keys) -> List.of(
                            table.itemsAdded(),
                            table.keyCount(),
                            table.totalWeight(),
                            tableAnswers(key -> Arrays.toString(table.counterTable(key)))),
                    () -> CountMinTable.builder().capacity(TABLE_KEYS).dimensions(51, 4)));

    @TempDir
    Path dir;

    private static List<Object> payload(Sketch sketch, long[] keys) {
        return List.of(
                sketch.itemsAdded(),
                ByteBuffer.wrap(SketchInternals.payload(sketch).segment().toArray(ValueLayout.JAVA_BYTE)));
    }

    /** Adds each generated key as an item of the table key its low bits name. */
    private static void addToKeys(KeyTable table, long[] keys) {
        for (long key : keys) {
            table.add(tableKey((int) (key & (TABLE_KEYS - 1))), key);
        }
    }

    private static String tableKey(int k) {
        return "key-" + k;
    }

    /** What a table answers of each of its possible keys: nothing for an absent one. */
    private static String tableAnswers(java.util.function.Function<String, String> answer) {
        StringBuilder answers = new StringBuilder();
        for (int k = 0; k < TABLE_KEYS; k++) {
            answers.append(answer.apply(tableKey(k))).append('\n');
        }
        return answers.toString();
    }

    private static long[] asked(long[] keys) {
        return LongStream.concat(Arrays.stream(keys), Arrays.stream(PROBES)).toArray();
    }

    private static boolean[] present(MembershipFilter filter, long[] keys) {
        long[] asked = asked(keys);
        boolean[] present = new boolean[asked.length];
        filter.mightContainAll(asked, present);
        return present;
    }

    private static long[] toArray(List<Long> keys) {
        return keys.stream().mapToLong(Long::longValue).toArray();
    }

    @Test
    void mergeThroughTheContractIsTheFamilyMergeAndTheSketchOfTheUnion() {
        qt().withFixedSeed(20_021L)
                .withExamples(300)
                .forAll(
                        integers().between(0, KINDS.size() - 1),
                                lists().of(longs().all()).ofSizeBetween(0, 300),
                        lists().of(longs().all()).ofSizeBetween(0, 300),
                                booleans().all())
                .checkAssert((index, left, right, shared) -> checkUnion(
                        KINDS.get(index),
                        toArray(left),
                        toArray(right),
                        shared ? OpenMode.SHARED : OpenMode.EXCLUSIVE));
    }

    private static <S extends Mergeable<S>> void checkUnion(Kind<S> kind, long[] left, long[] right, OpenMode mode) {
        long[] both =
                LongStream.concat(Arrays.stream(left), Arrays.stream(right)).toArray();
        try (S family = kind.create(mode);
                S contract = kind.create(mode);
                S other = kind.create(OpenMode.EXCLUSIVE);
                S union = kind.create(OpenMode.EXCLUSIVE)) {
            kind.add().accept(family, left);
            kind.add().accept(contract, left);
            kind.add().accept(other, right);
            kind.add().accept(union, both);
            Object otherBefore = kind.state().apply(other, both);
            family.merge(other);
            Sketch opened = other;
            contract.mergeSketch(opened);
            String what = kind + " in " + mode + ", " + left.length + " + " + right.length + " keys";
            assertEquals(kind.state().apply(family, both), kind.state().apply(contract, both), what);
            assertEquals(kind.state().apply(union, both), kind.state().apply(contract, both), what);
            assertEquals(otherBefore, kind.state().apply(other, both), what + ": the other sketch changed");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The check before a merge refuses exactly what the merge refuses, with its message, and changes
     * nothing: another kind, another seed, another shape, or none of them.
     */
    @Test
    void theCheckBeforeAMergeRefusesWhatTheMergeRefusesAndChangesNothing() {
        qt().withFixedSeed(20_025L)
                .withExamples(120)
                .forAll(
                        integers().between(0, KINDS.size() - 1),
                        integers().between(0, 3),
                        lists().of(longs().all()).ofSizeBetween(0, 100))
                .checkAssert((index, difference, keys) -> checkRefusals(KINDS.get(index), difference, toArray(keys)));
    }

    /** {@code difference}: 0 none, 1 the seed, 2 the shape, 3 the kind. */
    private static <S extends Mergeable<S>> void checkRefusals(Kind<S> kind, int difference, long[] keys) {
        Kind<?> next = KINDS.get((KINDS.indexOf(kind) + 1) % KINDS.size());
        try (S into = kind.create(OpenMode.EXCLUSIVE);
                Sketch other = switch (difference) {
                    case 0 -> kind.create(OpenMode.EXCLUSIVE);
                    case 1 -> kind.builder().get().seed(7).createAnonymous(OpenMode.EXCLUSIVE);
                    case 2 -> kind.otherShape().get().createAnonymous(OpenMode.EXCLUSIVE);
                    default -> next.create(OpenMode.EXCLUSIVE);
                }) {
            kind.add().accept(into, keys);
            Object before = kind.state().apply(into, keys);
            String what = kind + ", difference " + difference;
            if (difference == 0) {
                into.requireMergeableSketch(other);
                assertEquals(before, kind.state().apply(into, keys), what);
                into.mergeSketch(other);
                return;
            }
            String checked = assertThrows(IncompatibleSketchException.class, () -> into.requireMergeableSketch(other))
                    .getMessage();
            assertEquals(before, kind.state().apply(into, keys), what);
            String merged = assertThrows(IncompatibleSketchException.class, () -> into.mergeSketch(other))
                    .getMessage();
            assertEquals(merged, checked, what);
            assertEquals(before, kind.state().apply(into, keys), what);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** How {@link #mergingSeveralAtOnceIsMergingEachInTurn} hands the sources over. */
    enum Given {
        /** {@link Mergeable#mergeAll} of the sources. */
        TYPED,
        /** {@link Mergeable#mergeAllSketches} of the sources known only as {@link Sketch}es. */
        AS_SKETCHES,
        /** {@link Mergeable#mergeAll} of the sources and the first of them once more, merged twice. */
        FIRST_AGAIN
    }

    /**
     * Merging several sketches at once leaves what merging each in turn leaves (for the tables, which merge
     * them together key by key and may place keys elsewhere, the same answers of every key), its items
     * counter grown by all of theirs, and the sources unchanged.
     */
    @Test
    void mergingSeveralAtOnceIsMergingEachInTurn() {
        qt().withFixedSeed(20_031L)
                .withExamples(200)
                .forAll(
                        integers().between(0, KINDS.size() - 1),
                        lists().of(lists().of(longs().all()).ofSizeBetween(0, 200))
                                .ofSizeBetween(3, 4),
                        booleans().all(),
                        arbitrary().enumValues(Given.class))
                .checkAssert((index, keyLists, shared, given) -> checkMergeAll(
                        KINDS.get(index),
                        keyLists.stream().map(MergeableTest::toArray).toList(),
                        shared ? OpenMode.SHARED : OpenMode.EXCLUSIVE,
                        given));
    }

    /** {@code keyLists}: the keys of the sketch merged into, then those of each source. */
    private static <S extends Mergeable<S>> void checkMergeAll(
            Kind<S> kind, List<long[]> keyLists, OpenMode mode, Given given) {
        long[] all = keyLists.stream().flatMapToLong(Arrays::stream).toArray();
        try (S inTurn = kind.create(mode);
                S together = kind.create(mode);
                Several<S> several = Several.of(kind, keyLists.subList(1, keyLists.size()))) {
            kind.add().accept(inTurn, keyLists.getFirst());
            kind.add().accept(together, keyLists.getFirst());
            List<S> sources = new ArrayList<>(several.sketches());
            if (given == Given.FIRST_AGAIN) {
                sources.add(sources.getFirst());
            }
            List<Object> sourcesBefore = sources.stream()
                    .map(source -> kind.state().apply(source, all))
                    .toList();
            long itemsBefore = together.itemsAdded();
            sources.forEach(inTurn::merge);
            if (given == Given.AS_SKETCHES) {
                List<Sketch> opened = List.copyOf(sources);
                together.mergeAllSketches(opened);
            } else {
                together.mergeAll(sources);
            }
            String what = kind + " in " + mode + ", " + given + ", " + sources.size() + " sources";
            assertEquals(kind.state().apply(inTurn, all), kind.state().apply(together, all), what);
            assertEquals(
                    itemsBefore + sources.stream().mapToLong(Sketch::itemsAdded).sum(),
                    together.itemsAdded(),
                    what + ": items added");
            assertEquals(
                    sourcesBefore,
                    sources.stream()
                            .map(source -> kind.state().apply(source, all))
                            .toList(),
                    what + ": a source changed");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A source of another seed, shape or kind anywhere among several is refused before any is merged, with
     * the message its own check gives (naming the kind for another kind, which only
     * {@link Mergeable#mergeAllSketches} can be handed), and the payload is unchanged.
     */
    @Test
    void mergingSeveralRefusesAMisfitAnywhereBeforeMergingAny() {
        qt().withFixedSeed(20_033L)
                .withExamples(150)
                .forAll(
                        integers().between(0, KINDS.size() - 1),
                        integers().between(1, 3),
                        integers().between(0, 2),
                        lists().of(longs().all()).ofSizeBetween(1, 100))
                .checkAssert((index, difference, position, keys) ->
                        checkMisfitRefused(KINDS.get(index), difference, position, toArray(keys)));
    }

    /** {@code difference}: 1 the seed, 2 the shape, 3 the kind; the misfit is source {@code position} of 3. */
    private static <S extends Mergeable<S>> void checkMisfitRefused(
            Kind<S> kind, int difference, int position, long[] keys) {
        Kind<?> next = KINDS.get((KINDS.indexOf(kind) + 1) % KINDS.size());
        List<long[]> sourceKeys = List.of(shifted(keys, 1), shifted(keys, 2));
        try (S into = kind.create(OpenMode.EXCLUSIVE);
                Several<S> fitting = Several.of(kind, sourceKeys);
                Sketch misfit = switch (difference) {
                    case 1 -> kind.builder().get().seed(7).createAnonymous(OpenMode.EXCLUSIVE);
                    case 2 -> kind.otherShape().get().createAnonymous(OpenMode.EXCLUSIVE);
                    default -> next.create(OpenMode.EXCLUSIVE);
                }) {
            kind.add().accept(into, keys);
            List<Object> payloadBefore = payload(into, keys);
            Object before = kind.state().apply(into, keys);
            String expected = assertThrows(IncompatibleSketchException.class, () -> into.requireMergeableSketch(misfit))
                    .getMessage();
            List<Sketch> sources = new ArrayList<>(fitting.sketches());
            sources.add(position, misfit);
            String what = kind + ", difference " + difference + ", misfit at " + position;
            String refused = assertThrows(IncompatibleSketchException.class, () -> into.mergeAllSketches(sources), what)
                    .getMessage();
            assertEquals(expected, refused, what);
            if (difference == 3) {
                assertTrue(
                        refused.startsWith(
                                "sketches differ in kind: " + into.kind() + " here, " + misfit.kind() + " in"),
                        what + ": " + refused);
            } else {
                @SuppressWarnings("unchecked")
                S sameKind = (S) misfit;
                List<S> typed = new ArrayList<>(fitting.sketches());
                typed.add(position, sameKind);
                assertEquals(
                        expected,
                        assertThrows(IncompatibleSketchException.class, () -> into.mergeAll(typed), what)
                                .getMessage(),
                        what);
            }
            assertEquals(payloadBefore, payload(into, keys), what + ": the payload changed");
            assertEquals(before, kind.state().apply(into, keys), what);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Merging no sketch at all, in either form, changes nothing. */
    @Test
    void mergingAnEmptyListChangesNothing() throws IOException {
        long[] keys = LongStream.range(0, 200).map(i -> i * 0x2545F4914F6CDD1DL).toArray();
        for (Kind<?> kind : KINDS) {
            mergeNone(kind, keys);
        }
    }

    private static <S extends Mergeable<S>> void mergeNone(Kind<S> kind, long[] keys) throws IOException {
        try (S into = kind.create(OpenMode.SHARED)) {
            kind.add().accept(into, keys);
            List<Object> before = payload(into, keys);
            into.mergeAll(List.of());
            assertEquals(before, payload(into, keys), kind.name());
            into.mergeAllSketches(List.of());
            assertEquals(before, payload(into, keys), kind.name());
        }
    }

    /** A closed source anywhere in the list is refused before any source is merged. */
    @Test
    void mergingSeveralRefusesAClosedSourceBeforeMergingAny() throws IOException {
        long[] keys = LongStream.range(0, 200).map(i -> i * 0x2545F4914F6CDD1DL).toArray();
        for (Kind<?> kind : KINDS) {
            mergeWithAClosedOne(kind, keys);
        }
    }

    private static <S extends Mergeable<S>> void mergeWithAClosedOne(Kind<S> kind, long[] keys) throws IOException {
        try (S into = kind.create(OpenMode.SHARED);
                S open = kind.create(OpenMode.EXCLUSIVE)) {
            kind.add().accept(open, shifted(keys, 1));
            S closed = kind.create(OpenMode.EXCLUSIVE);
            kind.add().accept(closed, shifted(keys, 2));
            closed.close();
            List<Object> before = payload(into, keys);
            IllegalStateException refused =
                    assertThrows(IllegalStateException.class, () -> into.mergeAll(List.of(open, closed)));
            assertTrue(refused.getMessage().contains("others[1] is closed"), kind.name() + ": " + refused.getMessage());
            assertEquals(before, payload(into, keys), kind.name());
            assertEquals(0, into.itemsAdded(), kind.name());
        }
    }

    /** The keys with their bits turned by a source's number, so that each source holds other keys. */
    private static long[] shifted(long[] keys, int source) {
        return Arrays.stream(keys)
                .map(key -> key ^ (source * 0x9E3779B97F4A7C15L))
                .toArray();
    }

    /** Sketches of a kind, each holding its list of keys, closed together. */
    private record Several<S extends Mergeable<S>>(List<S> sketches) implements AutoCloseable {

        static <S extends Mergeable<S>> Several<S> of(Kind<S> kind, List<long[]> keyLists) {
            List<S> sketches = new ArrayList<>();
            Several<S> several = new Several<>(sketches);
            for (long[] keys : keyLists) {
                S sketch = kind.create(OpenMode.EXCLUSIVE);
                sketches.add(sketch);
                kind.add().accept(sketch, keys);
            }
            return several;
        }

        @Override
        public void close() throws IOException {
            for (S sketch : sketches) {
                sketch.close();
            }
        }
    }

    @Test
    void exactlyTheKindsThatMergeAreMergeable() {
        assertEquals(
                Set.of(
                        BloomFilter.class,
                        BlockedBloomFilter.class,
                        CountingBloomFilter.class,
                        ScalableBloomFilter.class,
                        CountMinSketch.class,
                        TopK.class,
                        HyperLogLog.class,
                        HyperLogLogTable.class,
                        BloomTable.class,
                        CountMinTable.class,
                        MinHash.class),
                Set.of(Mergeable.class.getPermittedSubclasses()));
        try (Sketch cuckoo = CuckooFilter.builder()
                        .expectedItems(100)
                        .falsePositiveRate(0.01)
                        .createAnonymous(OpenMode.EXCLUSIVE);
                Sketch simHash = SimHash.builder().capacity(10).createAnonymous(OpenMode.EXCLUSIVE)) {
            assertFalse(cuckoo instanceof Mergeable<?>);
            assertFalse(simHash instanceof Mergeable<?>);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void theContractRefusesAnotherKindSeedOrShapeAndChangesNothing() throws IOException {
        long[] keys = LongStream.range(0, 100).toArray();
        try (BlockedBloomFilter into = BlockedBloomFilter.builder()
                        .expectedItems(1_000)
                        .falsePositiveRate(0.01)
                        .createAnonymous(OpenMode.EXCLUSIVE);
                HyperLogLog hll = HyperLogLog.builder().precision(10).createAnonymous(OpenMode.EXCLUSIVE);
                BlockedBloomFilter seeded = BlockedBloomFilter.builder()
                        .expectedItems(1_000)
                        .falsePositiveRate(0.01)
                        .seed(1)
                        .createAnonymous(OpenMode.EXCLUSIVE);
                BlockedBloomFilter larger = BlockedBloomFilter.builder()
                        .expectedItems(100_000)
                        .falsePositiveRate(0.01)
                        .createAnonymous(OpenMode.EXCLUSIVE)) {
            into.addAll(keys);
            hll.addAll(keys);
            seeded.addAll(keys);
            larger.addAll(keys);
            List<Object> before = payload(into, keys);
            assertEquals(
                    "sketches differ in kind: BLOCKED_BLOOM here, HYPERLOGLOG in the other sketch; only sketches"
                            + " with identical kind, shape, hash scheme and seed can be combined",
                    assertThrows(IncompatibleSketchException.class, () -> into.mergeSketch(hll))
                            .getMessage());
            assertTrue(assertThrows(IncompatibleSketchException.class, () -> into.mergeSketch(seeded))
                    .getMessage()
                    .startsWith("sketches differ in hash seed: 0 here, 1 in the other sketch"));
            assertTrue(assertThrows(IncompatibleSketchException.class, () -> into.mergeSketch(larger))
                    .getMessage()
                    .startsWith("sketches differ in blocks: "));
            assertEquals(before, payload(into, keys));
        }
    }

    @Test
    void readOnlyAndClosedSketchesAreRefused() throws IOException {
        for (Kind<?> kind : KINDS) {
            refusesReadOnlyAndClosed(kind);
        }
    }

    private <S extends Mergeable<S>> void refusesReadOnlyAndClosed(Kind<S> kind) throws IOException {
        Path file = dir.resolve(kind.name());
        kind.builder().get().create(file, OpenMode.EXCLUSIVE).close();
        try (Sketch readOnly = Sketch.open(file, OpenMode.READ_ONLY);
                S other = kind.create(OpenMode.EXCLUSIVE)) {
            Mergeable<?> target = assertInstanceOf(Mergeable.class, readOnly);
            assertTrue(
                    assertThrows(IllegalStateException.class, () -> target.mergeSketch(other))
                            .getMessage()
                            .contains("READ_ONLY"),
                    kind.name());
        }
        S closed = kind.create(OpenMode.EXCLUSIVE);
        closed.close();
        try (S into = kind.create(OpenMode.EXCLUSIVE)) {
            assertThrows(IllegalStateException.class, () -> into.mergeSketch(closed), kind.name());
            assertThrows(IllegalStateException.class, () -> closed.mergeSketch(into), kind.name());
        }
    }

    /** An empty sketch made in another's shape ({@link SketchFacts#createEmptyLike}) takes its merge and is then it. */
    @Test
    void anEmptySketchInAnothersShapeTakesItsMergeAndIsThenTheSame() throws IOException {
        long[] keys = LongStream.range(0, 200).map(i -> i * 0x2545F4914F6CDD1DL).toArray();
        for (Kind<?> kind : KINDS) {
            mergeIntoEmptyLike(kind, keys);
        }
    }

    private <S extends Mergeable<S>> void mergeIntoEmptyLike(Kind<S> kind, long[] keys) throws IOException {
        try (S source = kind.builder().get().seed(5).create(dir.resolve(kind.name()), OpenMode.EXCLUSIVE)) {
            kind.add().accept(source, keys);
            try (Sketch created = SketchFacts.createEmptyLike(source, dir.resolve(kind + "-like"), OpenMode.SHARED)) {
                assertEquals(source.kind(), created.kind(), kind.name());
                assertEquals(5, created.hashSeed(), kind.name());
                assertEquals(0, created.itemsAdded(), kind.name());
                assertEquals(source.memoryBytes(), created.memoryBytes(), kind.name());
                assertInstanceOf(Mergeable.class, created).mergeSketch(source);
                @SuppressWarnings("unchecked")
                S same = (S) created;
                assertEquals(kind.state().apply(source, keys), kind.state().apply(same, keys), kind.name());
            }
        }
    }

    /** OR, max and min merges are idempotent, sums are not; merging an idempotent kind twice changes nothing. */
    @Test
    void exactlyTheOrMaxAndMinMergesAreIdempotent() {
        long[] keys = LongStream.range(0, 300).toArray();
        Set<String> idempotent = Set.of("classic", "blocked", "scalable", "hll", "minhash", "hll-table", "bloom-table");
        for (Kind<?> kind : KINDS) {
            assertEquals(idempotent.contains(kind.name()), mergedTwiceIsMergedOnce(kind, keys), kind.name());
        }
    }

    /** Whether the kind says its merge is idempotent, checked against the answers after a second merge. */
    private static <S extends Mergeable<S>> boolean mergedTwiceIsMergedOnce(Kind<S> kind, long[] keys) {
        try (S into = kind.create(OpenMode.EXCLUSIVE);
                S other = kind.create(OpenMode.EXCLUSIVE)) {
            kind.add().accept(other, keys);
            into.merge(other);
            Object once = kind.state().apply(into, keys);
            into.merge(other);
            if (into.mergeIsIdempotent()) {
                List<?> onceState = (List<?>) once;
                List<?> twiceState = (List<?>) kind.state().apply(into, keys);
                assertEquals(
                        onceState.subList(1, onceState.size()), twiceState.subList(1, twiceState.size()), kind.name());
            } else {
                assertFalse(once.equals(kind.state().apply(into, keys)), kind.name());
            }
            return into.mergeIsIdempotent();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
