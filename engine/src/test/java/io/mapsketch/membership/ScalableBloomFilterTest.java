package io.mapsketch.membership;

import static io.mapsketch.enginetesting.KeyGenerators.keys;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.CreateOption;
import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.OpenMode;
import io.mapsketch.SketchKind;
import io.mapsketch.enginetesting.FalsePositives;
import io.mapsketch.enginetesting.FilterWorker;
import io.mapsketch.enginetesting.SeededKeys;
import io.mapsketch.memory.HashScheme;
import io.mapsketch.memory.RegionMode;
import io.mapsketch.memory.SketchFileLayout;
import io.mapsketch.memory.SketchHeader;
import io.mapsketch.memory.SketchRegions;
import io.mapsketch.testing.ChildJvm;
import io.mapsketch.testing.HeaderSeal;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scalable filter: no false negatives and a bounded compound rate however far it grows. */
class ScalableBloomFilterTest {

    @TempDir
    Path dir;

    private static ScalableBloomFilter.Builder builder(long initial, double rate) {
        return ScalableBloomFilter.builder()
                .expectedItems(initial)
                .falsePositiveRate(rate)
                .seed(5);
    }

    @Test
    void compoundRateStaysUnderTheTargetAsItemsGrowAHundredFold() throws IOException {
        try (ScalableBloomFilter filter = builder(1_000, 0.01).createAnonymous(OpenMode.EXCLUSIVE)) {
            long[] keys = new SplittableRandom(1).longs(100_000).toArray();
            filter.addAll(keys);
            assertEquals(7, filter.links(), "1,000 + 2,000 + ... + 64,000 hold 100,000");
            boolean[] found = new boolean[keys.length];
            filter.mightContainAll(keys, found);
            for (int i = 0; i < keys.length; i++) {
                assertTrue(found[i] && filter.mightContain(keys[i]));
            }
            double measured = FalsePositives.measuredFalsePositiveRate(filter, 1_000_000, 2);
            assertTrue(measured < 0.01, "measured " + measured);
            assertEquals(filter.expectedFalsePositiveRate(), measured, 0.001);
            assertTrue(filter.expectedFalsePositiveRate() < 0.01);
            assertFalse(filter.isOverCapacity());
            assertEquals(100_000, filter.itemsAdded());
        }
    }

    @Test
    void atItsFirstCapacityOnlyTheFirstLinkHoldsKeysAtItsShareOfTheRate() throws IOException {
        try (ScalableBloomFilter filter = builder(100_000, 0.02).createAnonymous(OpenMode.EXCLUSIVE)) {
            filter.addAll(new SplittableRandom(3).longs(100_000).toArray());
            assertEquals(1, filter.links());
            double measured = FalsePositives.measuredFalsePositiveRate(filter, 1_000_000, 4);
            assertEquals(0.01, measured, 0.001, "link 0 gets P (1 - r) = 1%");
        }
    }

    @Test
    void noFalseNegativesEverWhileGrowing() {
        qt().withFixedSeed(19L)
                .withExamples(60)
                .forAll(keys(1, 20_000), integers().between(1, 50))
                .checkAssert((keys, initial) -> {
                    try (ScalableBloomFilter filter = builder(initial, 0.05).createAnonymous(OpenMode.SHARED)) {
                        for (int i = 0; i < keys.length; i++) {
                            if (i % 3 == 0) {
                                filter.add(keys[i]);
                            } else {
                                filter.addAll(new long[] {keys[i]});
                            }
                        }
                        for (long key : keys) {
                            assertTrue(filter.mightContain(key));
                        }
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                });
    }

    @Test
    void concurrentWritersLoseNothingAcrossLinkBoundaries() throws Exception {
        long[] keys = new SplittableRandom(7).longs(80_000).toArray();
        int threads = 4;
        try (ScalableBloomFilter filter = builder(500, 0.01).createAnonymous(OpenMode.SHARED);
                ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            Future<?>[] done = new Future<?>[threads];
            for (int t = 0; t < threads; t++) {
                int first = t;
                done[t] = pool.submit(() -> {
                    for (int i = first; i < keys.length; i += threads) {
                        filter.add(keys[i]);
                    }
                });
            }
            for (Future<?> f : done) {
                f.get();
            }
            for (long key : keys) {
                assertTrue(filter.mightContain(key));
            }
            assertEquals(keys.length, filter.itemsAdded());
            assertTrue(filter.expectedFalsePositiveRate() < 0.01);
        }
    }

    @Test
    void reopensFromItsDirectoryAndAnotherProcessSeesNewLinks() throws Exception {
        Path directory = dir.resolve("growing");
        try (ScalableBloomFilter filter = builder(1_000, 0.01).create(directory, OpenMode.SHARED)) {
            filter.addAll(new SplittableRandom(11).longs(500).toArray());
            assertEquals(1, filter.links());
            try (ChildJvm child =
                    ChildJvm.start(dir, FilterWorker.class, "scalable", directory.toString(), "12", "20000")) {
                assertEquals("ready", child.readLine());
                child.go();
                assertEquals("done", child.readLine());
                assertEquals(0, child.waitFor(Duration.ofMinutes(1)));
            }
            for (long key : SeededKeys.of(12, 20_000)) {
                assertTrue(filter.mightContain(key), "a key the other process added to a link it created");
            }
            assertTrue(filter.links() >= 5, "links: " + filter.links());
            assertEquals(20_500, filter.itemsAdded());
        }
        assertTrue(linkFiles(directory).size() >= 5, "link files: " + linkFiles(directory));
        try (ScalableBloomFilter reopened = ScalableBloomFilter.open(directory, OpenMode.READ_ONLY)) {
            for (long key : new SplittableRandom(11).longs(500).toArray()) {
                assertTrue(reopened.mightContain(key));
            }
            assertThrows(IllegalStateException.class, () -> reopened.add(1));
        }
    }

    @Test
    void mergeAnswersForTheUnion() throws IOException {
        long[] left = new SplittableRandom(21).longs(3_000).toArray();
        long[] right = new SplittableRandom(22).longs(9_000).toArray();
        try (ScalableBloomFilter a = builder(1_000, 0.01).createAnonymous(OpenMode.EXCLUSIVE);
                ScalableBloomFilter b = builder(1_000, 0.01).createAnonymous(OpenMode.EXCLUSIVE);
                ScalableBloomFilter other = builder(2_000, 0.01).createAnonymous(OpenMode.EXCLUSIVE)) {
            a.addAll(left);
            b.addAll(right);
            a.merge(b);
            assertEquals(b.links(), a.links());
            for (long key : left) {
                assertTrue(a.mightContain(key));
            }
            for (long key : right) {
                assertTrue(a.mightContain(key));
            }
            assertEquals(12_000, a.itemsAdded());
            IncompatibleSketchException e = assertThrows(IncompatibleSketchException.class, () -> a.merge(other));
            assertTrue(e.getMessage().startsWith("sketches differ in initial capacity"), e.getMessage());
        }
    }

    @Test
    void overwritingGivesAFreshFilterAndRemovesTheOldLinks() throws IOException {
        Path directory = dir.resolve("replaced");
        List<Path> oldLinks;
        try (ScalableBloomFilter old = builder(1_000, 0.01).create(directory, OpenMode.EXCLUSIVE)) {
            old.add(42);
            old.addAll(new SplittableRandom(31).longs(2_500).toArray());
            assertEquals(2, old.links());
        }
        oldLinks = linkFiles(directory);
        assertEquals(2, oldLinks.size(), oldLinks.toString());
        Path kept = dir.resolve("kept-old-link");
        Files.copy(oldLinks.get(0), kept);
        try (ScalableBloomFilter fresh =
                builder(1_000, 0.01).create(directory, OpenMode.EXCLUSIVE, CreateOption.OVERWRITE_EXISTING)) {
            assertFalse(fresh.mightContain(42), "a fresh filter holds nothing of the old one");
            assertEquals(1, fresh.links());
            assertEquals(0, fresh.itemsAdded());
        }
        List<Path> links = linkFiles(directory);
        assertEquals(1, links.size(), links.toString());
        assertFalse(oldLinks.contains(links.get(0)), "the new chain's link has a name of its own");
        // An old link left behind (a crash between the manifest's replacement and the clean-up) is never read.
        Files.copy(kept, oldLinks.get(0));
        try (ScalableBloomFilter reopened = ScalableBloomFilter.open(directory, OpenMode.SHARED)) {
            assertFalse(reopened.mightContain(42));
            reopened.addAll(new SplittableRandom(32).longs(3_000).toArray());
            assertFalse(reopened.mightContain(42), "growing never adopts the old chain's links");
        }
    }

    @Test
    void openingRefusesALinkFileThatIsNotTheOneTheManifestLists() throws IOException {
        Path directory = dir.resolve("listed");
        try (ScalableBloomFilter filter = builder(1_000, 0.01).create(directory, OpenMode.EXCLUSIVE)) {
            filter.add(7);
        }
        Path link = linkFiles(directory).get(0);
        // Same shape and seed, another file: the manifest's entry (its creation time) tells them apart.
        Path impostor = dir.resolve("impostor.sketch");
        try (BlockedBloomFilter other = BlockedBloomFilter.builder()
                .expectedItems(1_000)
                .falsePositiveRate(0.005)
                .seed(5)
                .create(impostor, OpenMode.EXCLUSIVE)) {
            other.add(8);
        }
        bumpCreationTime(impostor);
        Files.move(impostor, link, StandardCopyOption.REPLACE_EXISTING);
        CorruptSketchFileException e = assertThrows(
                CorruptSketchFileException.class, () -> ScalableBloomFilter.open(directory, OpenMode.READ_ONLY));
        assertTrue(
                e.getMessage().contains(link.toString())
                        && e.getMessage().contains("creation time")
                        && e.getMessage().contains("is not the one the chain recorded"),
                e.getMessage());
        // Another seed is refused whatever the manifest lists.
        try (BlockedBloomFilter seeded = BlockedBloomFilter.builder()
                .expectedItems(1_000)
                .falsePositiveRate(0.005)
                .seed(6)
                .create(link, OpenMode.EXCLUSIVE, CreateOption.OVERWRITE_EXISTING)) {
            seeded.add(9);
        }
        e = assertThrows(
                CorruptSketchFileException.class, () -> ScalableBloomFilter.open(directory, OpenMode.READ_ONLY));
        assertTrue(e.getMessage().contains("hash seed is 6, expected 5"), e.getMessage());
    }

    @Test
    void aManifestOfVersionOneKeepsItsLinkNamesAndOpens() throws IOException {
        Path directory = dir.resolve("version-one");
        Files.createDirectories(directory);
        long[] parameters = {
            1_000, Double.doubleToLongBits(0.01), Double.doubleToLongBits(0.5), Double.doubleToLongBits(2.0)
        };
        SketchHeader header = SketchHeader.forNewSketch(
                        SketchKind.SCALABLE_BLOOM.id(), HashScheme.XXH3_64, 5, parameters, 64)
                .withFormatVersion(SketchFileLayout.FIRST_FORMAT_VERSION);
        SketchRegions.create(directory.resolve(ScalableBloomFilter.MANIFEST), header, RegionMode.EXCLUSIVE)
                .close();
        long[] keys = new SplittableRandom(41).longs(2_500).toArray();
        try (ScalableBloomFilter filter = ScalableBloomFilter.open(directory, OpenMode.EXCLUSIVE)) {
            filter.addAll(keys);
            assertEquals(2, filter.links());
        }
        assertEquals(
                List.of(directory.resolve("link-0000.sketch"), directory.resolve("link-0001.sketch")),
                linkFiles(directory));
        try (ScalableBloomFilter reopened = ScalableBloomFilter.open(directory, OpenMode.READ_ONLY)) {
            for (long key : keys) {
                assertTrue(reopened.mightContain(key));
            }
        }
    }

    /** Adds a millisecond to a closed sketch file's creation time, resealing its header checksum. */
    private static void bumpCreationTime(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        ByteBuffer header = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        header.putLong(SketchFileLayout.CREATED_OFFSET, header.getLong(SketchFileLayout.CREATED_OFFSET) + 1);
        HeaderSeal.rewriteChecksum(bytes);
        Files.write(file, bytes);
    }

    private static List<Path> linkFiles(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(f -> f.getFileName().toString().startsWith("link-"))
                    .sorted()
                    .toList();
        }
    }

    @Test
    void builderNamesBadParameters() {
        assertEquals(
                "tighteningRatio = 1.0, must be in (0, 1)",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> ScalableBloomFilter.builder().tighteningRatio(1))
                        .getMessage());
        assertEquals(
                "growthFactor = 0.5, must be in [1, 1000000)",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> ScalableBloomFilter.builder().growthFactor(0.5))
                        .getMessage());
    }
}
