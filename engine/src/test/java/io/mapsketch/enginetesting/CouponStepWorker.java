package io.mapsketch.enginetesting;

import io.mapsketch.OpenMode;
import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.internal.DataSketchesCoupons;
import io.mapsketch.memory.AtomicSegment;
import io.mapsketch.memory.SketchFileLayout;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A child JVM that stops the only writer of a DataSketches-hashed HyperLogLog in the middle of a step of
 * its coupon modes, to be killed there: {@code FILE LGK STEP}. It creates the file {@code EXCLUSIVE}, adds
 * keys 0, 1, ... until the coupons stand one below the step, and then makes the step's stores up to the
 * point {@code STEP} names through a second mapping of the same file, in the order the writer makes
 * them ({@link Step}). It prints {@code ready N}, N the last key whose coupon the file holds, and waits to
 * be killed: nothing closes the sketch.
 */
public final class CouponStepWorker {

    private static final ValueLayout.OfInt ENTRY = ValueLayout.JAVA_INT.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** The growing bit of the coupon word (docs/design/datasketches-hll.md, "Where the coupons live"). */
    private static final long GROWING = 4;
    /** The low bits of a coupon that address its slot. */
    private static final int ADDRESS_BITS = 26;

    private CouponStepWorker() {}

    /** Where in a step the writer dies. */
    public enum Step {
        /** A LIST's eighth coupon stored and counted, the old table copied into the registers' bytes, the growing bit set. */
        GROWTH_STARTED,
        /** As {@link #GROWTH_STARTED}, and the area cleared for the SET's rebuild. */
        GROWTH_AREA_CLEARED,
        /** The SET rebuilt and its word published, the registers' bytes still holding the old table. */
        GROWTH_PUBLISHED,
        /** The coupon at which DataSketches promotes stored and counted, no register raised yet. */
        PROMOTION_COUNTED,
        /** As {@link #PROMOTION_COUNTED}, and half of the coupons raised into the registers. */
        PROMOTION_HALF_RAISED;

        /** The coupons the file holds when the step begins. */
        int couponsBefore(int lgK) {
            return this.ordinal() <= GROWTH_PUBLISHED.ordinal() ? 7 : DataSketchesCoupons.promotionCoupons(lgK) - 1;
        }
    }

    /**
     * Runs the writer, as the class comment says.
     *
     * @param args the file, lgK and the step
     * @throws Exception if the file cannot be created or mapped
     */
    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int lgK = Integer.parseInt(args[1]);
        Step step = Step.valueOf(args[2]);
        HyperLogLog sketch =
                HyperLogLog.builder().precision(lgK).dataSketchesHashing().create(file, OpenMode.EXCLUSIVE);
        MemorySegment mapped = map(file);
        MemorySegment payload = mapped.asSlice(mapped.get(LONG, SketchFileLayout.PAYLOAD_OFFSET_OFFSET));
        AtomicSegment line = new AtomicSegment(mapped.asSlice(SketchFileLayout.SUMMARY_OFFSET, 64));
        long registerBytes = Math.ceilDiv(1L << lgK, 64) * 64;
        DataSketchesCoupons coupons = new DataSketchesCoupons(line, payload, registerBytes, lgK);
        long key = 0;
        while (DataSketchesCoupons.count(coupons.word()) < step.couponsBefore(lgK)) {
            sketch.add(key++);
        }
        int coupon;
        while (held(coupons, coupon = couponOf(key))) {
            sketch.add(key++);
        }
        MemorySegment registers = payload.asSlice(0, registerBytes);
        MemorySegment area = payload.asSlice(registerBytes, DataSketchesCoupons.areaBytes(lgK));
        int[] before = coupons.table();
        switch (step) {
            case GROWTH_STARTED, GROWTH_AREA_CLEARED -> {
                area.setAtIndex(ENTRY, 7, coupon);
                line.putLongRelease(DataSketchesCoupons.WORD, coupons.word() + (1L << 32));
                MemorySegment.copy(area, 0, registers, 0, 4L * 8);
                line.putLongRelease(DataSketchesCoupons.WORD, coupons.word() | GROWING);
                if (step == Step.GROWTH_AREA_CLEARED) {
                    area.asSlice(0, 4L << 5).fill((byte) 0);
                }
            }
            case GROWTH_PUBLISHED -> {
                coupons.insert(coupon);
                MemorySegment.copy(before, 0, registers, ENTRY, 0, before.length);
                registers.setAtIndex(ENTRY, 7, coupon);
            }
            case PROMOTION_COUNTED, PROMOTION_HALF_RAISED -> {
                if (coupons.insert(coupon) != DataSketchesCoupons.PROMOTE) {
                    throw new IllegalStateException("coupon " + coupon + " did not promote at lgK " + lgK);
                }
                if (step == Step.PROMOTION_HALF_RAISED) {
                    int[] held = coupons.coupons();
                    for (int i = 0; i < held.length / 2; i++) {
                        long slot = held[i] & ((1L << lgK) - 1);
                        byte value = (byte) (held[i] >>> ADDRESS_BITS);
                        registers.set(ValueLayout.JAVA_BYTE, slot, (byte)
                                Math.max(registers.get(ValueLayout.JAVA_BYTE, slot), value));
                    }
                }
            }
        }
        System.out.println("ready " + key);
        Thread.sleep(Long.MAX_VALUE);
    }

    private static MemorySegment map(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, channel.size(), Arena.global());
        }
    }

    private static boolean held(DataSketchesCoupons coupons, int coupon) {
        for (int entry : coupons.table()) {
            if (entry == coupon) {
                return true;
            }
        }
        return false;
    }

    /** The coupon the engine computes for a key: the only entry of a sketch that holds that key alone. */
    private static int couponOf(long key) throws IOException {
        try (HyperLogLog alone = HyperLogLog.builder()
                .precision(HyperLogLog.MAX_DATASKETCHES_PRECISION)
                .dataSketchesHashing()
                .createAnonymous(OpenMode.EXCLUSIVE)) {
            alone.add(key);
            return alone.dataSketchesCoupons()[0];
        }
    }
}
