package io.mapsketch.internal;

import io.mapsketch.IncompatibleSketchFileException;
import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.SketchKind;
import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.cardinality.HyperLogLogTable;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.frequency.CountMinTable;
import io.mapsketch.frequency.TopK;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.BloomTable;
import io.mapsketch.membership.CountingBloomFilter;
import io.mapsketch.membership.CuckooFilter;
import io.mapsketch.membership.ScalableBloomFilter;
import io.mapsketch.memory.SketchRegion;
import io.mapsketch.similarity.MinHash;
import io.mapsketch.similarity.SimHash;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Opens a sketch by the kind its header names, through that kind's own {@code open}, so that a file
 * is validated and refused exactly as its family refuses it. A directory is a scalable Bloom filter.
 */
public final class SketchOpener {

    /** The class that stores a kind, and its {@code open}. */
    private record Stored(Class<? extends Sketch> type, Opener opener) {}

    @FunctionalInterface
    private interface Opener {
        Sketch open(Path path, OpenMode mode) throws IOException;
    }

    private SketchOpener() {}

    /**
     * Opens the sketch at {@code path} if its kind is stored by {@code type} or a subtype; another kind,
     * or a scalable filter's manifest named instead of its directory, is refused before the file is
     * opened in {@code mode}. Cost: a read-only open of the header to learn the kind, then the kind's open.
     *
     * @param expected what {@code type} stores, for the refusal ("a membership filter (BLOOM, ...)")
     * @throws IncompatibleSketchFileException naming the path and its kind if it is refused
     */
    public static <S extends Sketch> S open(Path path, OpenMode mode, Class<S> type, String expected)
            throws IOException {
        Objects.requireNonNull(mode, "mode");
        boolean directory = Files.isDirectory(path);
        SketchKind kind = directory ? SketchKind.SCALABLE_BLOOM : kindInHeader(path);
        Stored stored = stored(kind);
        if (!type.isAssignableFrom(stored.type()) || (kind == SketchKind.SCALABLE_BLOOM && !directory)) {
            throw new IncompatibleSketchFileException(
                    path, "header field 'sketch kind' is " + kind + ", expected " + expected);
        }
        return type.cast(stored.opener().open(path, mode));
    }

    /**
     * Opens an anonymous sketch holding a copy of a sketch file image, through its kind's own {@code open} (which
     * reads the image bound to {@link RegionSketch#IMAGE} instead of a file), so that the image is validated
     * and refused exactly as a file of its kind. Cost: a validation of the header and the payload's digests,
     * one copy of the image, then the kind's open.
     *
     * @param origin the name messages give the image
     * @throws IncompatibleSketchFileException naming {@code origin} if the image is of a scalable Bloom filter
     *     (a directory of files, never one image) or of an unknown kind
     */
    public static Sketch openImage(MemorySegment image, Path origin, OpenMode mode) throws IOException {
        Objects.requireNonNull(mode, "mode");
        SketchKind kind = Regions.imageKind(image, origin);
        if (kind == SketchKind.SCALABLE_BLOOM) {
            throw new IncompatibleSketchFileException(
                    origin,
                    "header field 'sketch kind' is " + kind
                            + ", a manifest of a directory of files; an image holds a sketch of one file");
        }
        Opener opener = stored(kind).opener();
        return ScopedValue.where(RegionSketch.IMAGE, image).call(() -> opener.open(origin, mode));
    }

    private static SketchKind kindInHeader(Path file) throws IOException {
        try (SketchRegion peek = Regions.open(file, OpenMode.READ_ONLY, null, null)) {
            return Regions.kind(peek.header());
        }
    }

    private static Stored stored(SketchKind kind) {
        return switch (kind) {
            case BLOOM -> new Stored(BloomFilter.class, BloomFilter::open);
            case BLOCKED_BLOOM -> new Stored(BlockedBloomFilter.class, BlockedBloomFilter::open);
            case COUNTING_BLOOM -> new Stored(CountingBloomFilter.class, CountingBloomFilter::open);
            case SCALABLE_BLOOM -> new Stored(ScalableBloomFilter.class, ScalableBloomFilter::open);
            case CUCKOO -> new Stored(CuckooFilter.class, CuckooFilter::open);
            case COUNT_MIN -> new Stored(CountMinSketch.class, CountMinSketch::open);
            case TOP_K -> new Stored(TopK.class, TopK::open);
            case HYPERLOGLOG -> new Stored(HyperLogLog.class, HyperLogLog::open);
            case MINHASH -> new Stored(MinHash.class, MinHash::open);
            case SIMHASH -> new Stored(SimHash.class, SimHash::open);
            case HYPERLOGLOG_TABLE -> new Stored(HyperLogLogTable.class, HyperLogLogTable::open);
            case BLOOM_TABLE -> new Stored(BloomTable.class, BloomTable::open);
            case COUNT_MIN_TABLE -> new Stored(CountMinTable.class, CountMinTable::open);
        };
    }
}
