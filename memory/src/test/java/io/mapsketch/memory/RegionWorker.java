package io.mapsketch.memory;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * Main class of the child JVMs in {@link CrossProcessTest}. One line of output per step, so the
 * parent can follow.
 *
 * <ul>
 *   <li>{@code hammer FILE CHILD_ID ITERATIONS}: opens SHARED, says {@code ready}, waits for the
 *       parent's go word, then performs ITERATIONS rounds of atomic adds, ORs and CAS increments
 *       on the words of {@link #ADD_LONG} and following, and says {@code done}.</li>
 *   <li>{@code try-open FILE MODE}: says {@code opened} or {@code locked} and exits.</li>
 *   <li>{@code hold FILE MODE}: opens, says {@code held}, and sleeps until killed.</li>
 *   <li>{@code hold-and-read FILE MODE}: opens, reads the whole file with {@link Files#readAllBytes}
 *       (which opens and closes a descriptor of its own), says {@code held PID}, and sleeps until
 *       killed.</li>
 *   <li>{@code hold-then-close FILE MODE}: opens, says {@code held PID}, waits for a line on standard
 *       input, then calls {@code force()} and {@code close()}, saying for each {@code ok} or
 *       {@code failed CLASS: MESSAGE}.</li>
 *   <li>{@code churn FILE N}: says {@code ready}, waits for a line on standard input, then N times
 *       opens the file SHARED, checks that the live line counts at least one writer, and closes
 *       it; says {@code done}.</li>
 *   <li>{@code churn-through-replacements FILE N}: N times opens the file SHARED (trying again while
 *       it is locked), adds an item and closes it while the parent replaces the file; says
 *       {@code done R}, R the number of closes that found the file replaced.</li>
 *   <li>{@code lock-hold FILE}: opens SHARED, takes the {@link RegionLock} at {@link #LOCK}, says
 *       {@code locked PID} and sleeps until killed.</li>
 *   <li>{@code lock-count FILE N}: opens SHARED, says {@code ready}, waits for the parent's go
 *       word, then N times takes the lock, increments the plain word at {@link #LOCKED_COUNT} with
 *       a separate load and store, and releases; says {@code done}.</li>
 *   <li>{@code write-and-hold FILE WORD}: opens SHARED, adds 1 to the payload's 64-bit word WORD,
 *       says {@code written} and sleeps until killed.</li>
 *   <li>{@code churn-write FILE N SEED}: says {@code ready}, waits for a line on standard input,
 *       then N times opens the file SHARED, ORs a bit drawn from SEED into a payload word drawn from
 *       SEED, and closes it; says {@code done}.</li>
 * </ul>
 */
public final class RegionWorker {

    static final long ADD_LONG = 0;
    static final long ADD_INT = 8;
    static final long CAS_LONG = 16;
    static final long GO = 24;
    static final long OR_WORDS = 64;
    static final int OR_WORD_COUNT = 64;
    static final long LOCK = 1024;
    static final long LOCKED_COUNT = 1032;

    private RegionWorker() {}

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[1]);
        switch (args[0]) {
            case "hammer" -> hammer(file, Integer.parseInt(args[2]), Integer.parseInt(args[3]));
            case "try-open" -> {
                try (SketchRegion region = SketchRegions.open(file, RegionMode.valueOf(args[2]))) {
                    System.out.println("opened " + region.mode());
                } catch (FileFault e) {
                    if (e.reason() != FileFault.Reason.LOCKED) {
                        System.err.println("refused " + e.reason() + ": " + e.getMessage());
                        System.exit(1);
                    }
                    System.out.println("locked " + e.getMessage());
                }
            }
            case "hold" -> {
                SketchRegion region = SketchRegions.open(file, RegionMode.valueOf(args[2]));
                System.out.println("held " + region.mode());
                Thread.sleep(Long.MAX_VALUE);
            }
            case "hold-and-read" -> {
                SketchRegion region = SketchRegions.open(file, RegionMode.valueOf(args[2]));
                Files.readAllBytes(file);
                System.out.println("held " + ProcessHandle.current().pid() + " " + region.mode());
                Thread.sleep(Long.MAX_VALUE);
            }
            case "hold-then-close" -> {
                SketchRegion region = SketchRegions.open(file, RegionMode.valueOf(args[2]));
                System.out.println("held " + ProcessHandle.current().pid());
                if (System.in.read() < 0) {
                    return;
                }
                System.out.println(outcome(region::force));
                System.out.println(outcome(region::close));
            }
            case "churn" -> {
                System.out.println("ready");
                if (System.in.read() < 0) {
                    return;
                }
                for (int i = Integer.parseInt(args[2]); i > 0; i--) {
                    try (SketchRegion writer = SketchRegions.open(file, RegionMode.SHARED);
                            SketchRegion reader = SketchRegions.open(file, RegionMode.READ_ONLY)) {
                        int writers = reader.attachedWriters();
                        if (writers < 1) {
                            throw new IllegalStateException(
                                    "attached writers = " + writers + " while " + writer + " is open");
                        }
                    }
                }
                System.out.println("done");
            }
            case "lock-hold" -> {
                SketchRegion region = SketchRegions.open(file, RegionMode.SHARED);
                new RegionLock(region.payload(), LOCK).lock();
                System.out.println("locked " + ProcessHandle.current().pid());
                Thread.sleep(Long.MAX_VALUE);
            }
            case "lock-count" -> lockCount(file, Integer.parseInt(args[2]));
            case "write-and-hold" -> {
                SketchRegion region = SketchRegions.open(file, RegionMode.SHARED);
                region.payload().getAndAddLong(8 * Long.parseLong(args[2]), 1);
                System.out.println("written");
                Thread.sleep(Long.MAX_VALUE);
            }
            case "churn-write" -> churnWrite(file, Integer.parseInt(args[2]), Long.parseLong(args[3]));
            case "churn-through-replacements" -> {
                int replaced = 0;
                for (int i = Integer.parseInt(args[2]); i > 0; i--) {
                    SketchRegion region;
                    try {
                        region = SketchRegions.open(file, RegionMode.SHARED);
                    } catch (FileFault newFileStillOpenByItsCreator) {
                        if (newFileStillOpenByItsCreator.reason() != FileFault.Reason.LOCKED) {
                            throw newFileStillOpenByItsCreator;
                        }
                        i++;
                        continue;
                    }
                    region.addItems(1);
                    try {
                        region.close();
                    } catch (FileFault e) {
                        if (e.reason() != FileFault.Reason.REPLACED) {
                            throw e;
                        }
                        replaced++;
                    }
                }
                System.out.println("done " + replaced);
            }
            default -> throw new IllegalArgumentException("unknown command " + args[0]);
        }
    }

    /** A step that may throw, for {@link #outcome}. */
    private interface Step {
        void run() throws Exception;
    }

    private static String outcome(Step step) {
        try {
            step.run();
            return "ok";
        } catch (Exception e) {
            Throwable cause = e instanceof UncheckedIOException unchecked ? unchecked.getCause() : e;
            String name = cause instanceof FileFault fault
                    ? fault.reason().name()
                    : cause.getClass().getName();
            return "failed " + name + ": " + cause.getMessage();
        }
    }

    private static void hammer(Path file, int childId, int iterations) throws Exception {
        try (SketchRegion region = SketchRegions.open(file, RegionMode.SHARED)) {
            AtomicSegment words = region.payload();
            System.out.println("ready");
            while (words.getLongAcquire(GO) == 0) {
                Thread.onSpinWait();
            }
            long orBit = 1L << childId;
            for (int i = 0; i < iterations; i++) {
                words.getAndAddLong(ADD_LONG, 1);
                words.getAndAddInt(ADD_INT, 1);
                words.getAndOrLong(OR_WORDS + 8L * (i % OR_WORD_COUNT), orBit << (i & 1) * 32);
                long seen;
                do {
                    seen = words.getLongAcquire(CAS_LONG);
                } while (!words.compareAndSetLong(CAS_LONG, seen, seen + 1));
            }
            region.addItems(iterations);
            System.out.println("done");
        }
    }

    private static void churnWrite(Path file, int iterations, long seed) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        System.out.println("ready");
        if (System.in.read() < 0) {
            return;
        }
        for (int i = 0; i < iterations; i++) {
            try (SketchRegion region = SketchRegions.open(file, RegionMode.SHARED)) {
                long words = region.payload().byteSize() / 8;
                region.payload().getAndOrLong(8 * random.nextLong(words), 1L << random.nextInt(64));
            }
        }
        System.out.println("done");
    }

    private static void lockCount(Path file, int iterations) throws Exception {
        try (SketchRegion region = SketchRegions.open(file, RegionMode.SHARED)) {
            AtomicSegment words = region.payload();
            RegionLock lock = new RegionLock(words, LOCK);
            System.out.println("ready");
            while (words.getLongAcquire(GO) == 0) {
                Thread.onSpinWait();
            }
            for (int i = 0; i < iterations; i++) {
                lock.lock();
                words.putLong(LOCKED_COUNT, words.getLong(LOCKED_COUNT) + 1);
                lock.unlock();
            }
            System.out.println("done");
        }
    }
}
