package io.mapsketch.interop;

import java.lang.foreign.MemorySegment;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.datasketches.hash.MurmurHash3;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.HllUnion;
import org.apache.datasketches.hll.TgtHllType;

/**
 * What a DataSketches HLL sketch holds after a list of {@code long} keys, rebuilt from the update rule
 * alone: distinct coupons until the sketch leaves its coupon modes, then the promoted registers, each
 * later key raising its slot and the HIP state by {@link DataSketchesHllUpdate}. Also builds the real
 * DataSketches sketches of the same keys, for the tests to compare against.
 */
final class DataSketchesReplay {

    private final int lgK;
    private final Set<Integer> coupons = new LinkedHashSet<>();
    private byte[] registers;
    private DataSketchesHllUpdate update;

    DataSketchesReplay(int lgK) {
        this.lgK = lgK;
    }

    static DataSketchesReplay of(int lgK, long[] keys) {
        DataSketchesReplay replay = new DataSketchesReplay(lgK);
        for (long key : keys) {
            replay.add(key);
        }
        return replay;
    }

    void add(long key) {
        long[] hash = MurmurHash3.hash(new long[] {key}, DataSketchesHllUpdate.SEED);
        if (registers == null) {
            coupons.add(DataSketchesHllUpdate.coupon(hash[0], hash[1]));
            if (coupons.size() == DataSketchesHllLayout.promotionCoupons(lgK)) {
                DataSketchesHllImage.Registers promoted = couponImage().promoted();
                registers = promoted.registers();
                update = DataSketchesHllUpdate.resuming(lgK, promoted.state());
            }
            return;
        }
        int slot = DataSketchesHllUpdate.slot(hash[0], lgK);
        int value = DataSketchesHllUpdate.value(hash[1]);
        if (value > registers[slot]) {
            update.registerRaised(registers[slot], value);
            registers[slot] = (byte) value;
        }
    }

    /** The mode DataSketches is in after the same keys. */
    DataSketchesHllMode mode() {
        if (registers != null) {
            return DataSketchesHllMode.HLL;
        }
        return lgK < 8 || coupons.size() < DataSketchesHllLayout.LIST_CAPACITY
                ? DataSketchesHllMode.LIST
                : DataSketchesHllMode.SET;
    }

    int distinctCoupons() {
        return coupons.size();
    }

    DataSketchesHllImage.Coupons couponImage() {
        int[] array = coupons.stream().mapToInt(Integer::intValue).toArray();
        return new DataSketchesHllImage.Coupons(lgK, DataSketchesHllType.HLL_8, mode(), false, array);
    }

    /** The in-order HLL_8 sketch of the keys; only once in HLL mode. */
    DataSketchesHllImage.Registers registerImage() {
        return new DataSketchesHllImage.Registers(
                lgK, DataSketchesHllType.HLL_8, false, false, registers, update.state());
    }

    static TgtHllType target(DataSketchesHllType type) {
        return TgtHllType.valueOf(type.name());
    }

    static HllSketch heapSketch(int lgK, DataSketchesHllType type, long[] keys) {
        HllSketch sketch = new HllSketch(lgK, target(type));
        for (long key : keys) {
            sketch.update(key);
        }
        return sketch;
    }

    static HllSketch directSketch(int lgK, DataSketchesHllType type, long[] keys) {
        TgtHllType target = target(type);
        MemorySegment segment =
                MemorySegment.ofArray(new byte[HllSketch.getMaxUpdatableSerializationBytes(lgK, target)]);
        HllSketch sketch = new HllSketch(lgK, target, segment);
        for (long key : keys) {
            sketch.update(key);
        }
        return sketch;
    }

    /** The HLL-mode image of a direct HLL_8 sketch of the keys, as the reader gives it. */
    static DataSketchesHllImage.Registers directSketchRead(int lgK, long[] keys) {
        try {
            return (DataSketchesHllImage.Registers) DataSketchesHllReader.read(
                    directSketch(lgK, DataSketchesHllType.HLL_8, keys).toUpdatableByteArray(), null);
        } catch (ForeignSketchException e) {
            throw new AssertionError(e);
        }
    }

    static HllUnion union(int lgK, HllSketch... sketches) {
        HllUnion union = new HllUnion(lgK);
        for (HllSketch sketch : sketches) {
            union.update(sketch);
        }
        return union;
    }
}
