package io.mapsketch.cardinality;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.Mergeable;
import io.mapsketch.OpenMode;
import io.mapsketch.SketchKind;
import io.mapsketch.TableFullException;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A HyperLogLog table: one {@link HyperLogLog} of precision p per key ("unique visitors per page per
 * day"), for up to N keys in one mapped file, shared by writers in any number of processes as any
 * sketch file is. A key's sketch answers exactly as one {@link HyperLogLog} of the table's precision and
 * seed would for the same items: the same registers, the same estimate, the same error
 * ({@link #relativeStandardError()}, both ways). Keys are bytes or strings (their UTF-8 bytes), items
 * {@linkplain io.mapsketch##keys any key form}; the same bytes are the same key or item in any form.
 *
 * <p>Storage: small keys' registers are sparse (a list of register values, 4 bytes each) and turn dense
 * (2^p bytes) past 2^p / 8 registers; a table is sized at creation and refuses a new key beyond its
 * capacity, or any add once its heap is used up, with {@link TableFullException}. The layout and the
 * protocols are in {@code docs/design/tables.md}.
 *
 * <p>Concurrency: a lookup of a key takes no lock; any number of {@code SHARED} writers in any number of
 * processes may add at once, new keys included, and leave every key with one sketch holding every item.
 *
 * <p>Cost: an add hashes the key and the item, finds the key (about 1.5 slot reads and a key compare)
 * and raises a register: for a sparse key a walk of its entries, for a dense one as
 * {@link HyperLogLog#add(long)}. An estimate reads a sparse key's entries, or gathers and summarises a
 * dense key's 2^p registers.
 */
// The mechanics every sketch shares sit in the unexported package; their public methods are this type's.
@SuppressWarnings("exports")
public final class HyperLogLogTable extends HyperLogLogTableReads implements Mergeable<HyperLogLogTable> {

    private HyperLogLogTable(SketchRegion region, HyperLogLogTableFormat format) {
        super(region, format);
    }

    /**
     * Starts a builder; the precision and the capacity are required.
     *
     * @return a new builder
     */
    public static HyperLogLogTableBuilder builder() {
        return new HyperLogLogTableBuilder();
    }

    /**
     * Opens a HyperLogLog table file; its shape comes from its header. Cost: one walk of the key index and
     * of every key's registers, which checks them.
     *
     * @param file the table file
     * @param mode read-only, shared writer or exclusive writer
     * @return the open table
     * @throws CorruptSketchFileException if a parameter is out of range, the payload is not the size they
     *     imply, or the index or a key's registers could be misread ({@code docs/design/tables.md})
     * @throws io.mapsketch.SketchFileException if the file is not a valid HyperLogLog table, or it is locked
     *     against this mode
     * @throws IOException if the file cannot be read
     */
    public static HyperLogLogTable open(Path file, OpenMode mode) throws IOException {
        return open(file, mode, SketchKind.HYPERLOGLOG_TABLE, HyperLogLogTable::read);
    }

    static HyperLogLogTable read(SketchRegion region) throws IOException {
        HyperLogLogTable table = new HyperLogLogTable(region, HyperLogLogTableFormat.read(HeaderReader.of(region)));
        table.validate();
        return table;
    }

    /** Raises the register of the item's hash in the key's sketch; whether a register grew. */
    @Override
    protected boolean addToRecord(long record, long hash) {
        return registers.add(record, hash);
    }

    /**
     * How many keys a table holds and how they are stored.
     *
     * @param keys the keys
     * @param sparse the keys whose registers are sparse only
     * @param dense the keys with a dense block
     */
    public record KeyCounts(long keys, long sparse, long dense) {}

    /**
     * Merges another table into this one key by key: afterwards each key of either answers as the
     * {@link HyperLogLog} of the union of its items in both (register maximum), keys new here inserted.
     * Cost: a walk of the other's index; per key, its entries in one walk of this key's chain, or for a
     * dense one a gather and the SIMD register-max kernel.
     *
     * @param other a table of the same precision, hash scheme and seed; not modified
     * @throws IncompatibleSketchException naming the parameter that differs
     * @throws TableFullException if a new key finds no room (the keys before it are merged; the items added
     *     count none of the other's)
     * @throws IllegalStateException if this table is read-only or either is closed
     */
    @Override
    public void merge(HyperLogLogTable other) {
        mergeAll(List.of(other));
    }

    /**
     * Merges several tables into this one together, key by key, leaving each key as {@link #merge} of each
     * in turn would: the {@link HyperLogLog} of the union of its items here and in every source. Each key is
     * written once: the union of its entries in every sparse source goes into one walk of its chain here, so
     * that rolling thirty day tables into a month walks each month key's entries once, not thirty times.
     * Cost: per key of the sources, a lookup here and in each source after the first that holds it, and its
     * entries; per dense source of a key, a gather and the SIMD register-max kernel.
     *
     * @param others tables of the same precision, hash scheme and seed; not modified
     * @throws IncompatibleSketchException naming the parameter that differs; nothing is merged
     * @throws TableFullException if a new key finds no room (the keys before it are merged; the items added
     *     count none of the sources')
     * @throws IllegalStateException if this table is read-only or closed, or one of them is closed (before any is
     *     merged)
     */
    @Override
    public void mergeAll(List<? extends HyperLogLogTable> others) {
        requireWritable();
        List<? extends HyperLogLogTable> sources = List.copyOf(others);
        requireMergeableAll(sources);
        TableRegisters[] from = sources.stream().map(table -> table.registers).toArray(TableRegisters[]::new);
        TableRegisters.MergeScratch scratch = registers.mergeScratch();
        mergeKeysOfAll(sources, (record, sourceRecords) -> registers.mergeAll(record, from, sourceRecords, scratch));
    }

    /** The precision, hash scheme and seed, as {@link #merge} takes them. */
    @Override
    public void requireMergeable(HyperLogLogTable other) {
        requireCompatible(Objects.requireNonNull(other, "other"), HyperLogLogTableFormat.SHAPE);
    }

    /** A maximum of registers per key: merging the same table again changes nothing. */
    @Override
    public boolean mergeIsIdempotent() {
        return true;
    }

    @Override
    public String toString() {
        return "HyperLogLogTable[" + describe() + ", precision " + precision + ", capacity " + capacity() + "]";
    }
}
