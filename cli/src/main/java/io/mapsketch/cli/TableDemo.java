package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.cardinality.HyperLogLogTable;
import io.mapsketch.frequency.CountMinTable;
import io.mapsketch.membership.BloomTable;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The demo's sketch tables: unique visitors per page per day in 30 HyperLogLog day tables, rolled into the
 * month by {@code mapsketch table merge}, a Bloom table of the clips each user has seen, and a Count-Min
 * table of how often each user played each clip, filled by {@code mapsketch table incrby} from lines.
 */
final class TableDemo {

    /** The directory of the day tables. */
    static final String DAYS = "pages-days";

    private static final int DAY_COUNT = 30;
    private static final int PAGES = 10;
    private static final int VISITORS_A_DAY = 300;
    private static final int NEW_VISITORS_A_DAY = 100;
    private static final int USERS = 1_000;
    private static final int CLIPS_SEEN = 100;
    private static final int CLIPS_PLAYED = 100;

    private final PrintWriter out;

    TableDemo(PrintWriter out) {
        this.out = out;
    }

    /**
     * Day {@code d}'s visitors of page {@code p} are the users from {@code p * 10^6 + d * 100} on, 300 of
     * them: a page's month has 29 x 100 + 300 = 3,200 distinct visitors.
     */
    void visitorsPerPage(Path dir) throws IOException {
        Path days = Files.createDirectory(dir.resolve(DAYS));
        Path monthFile = dir.resolve("pages-month.hllt");
        List<String> command = new ArrayList<>(List.of("table", "merge", monthFile.toString()));
        long dayBytes = 0;
        for (int d = 1; d <= DAY_COUNT; d++) {
            Path day = days.resolve(String.format(Locale.ROOT, "pages-%02d.hllt", d));
            try (HyperLogLogTable table = HyperLogLogTable.builder()
                    .precision(14)
                    .capacity(PAGES)
                    .bytesPerKey(4_096)
                    .create(day, OpenMode.EXCLUSIVE)) {
                for (int p = 0; p < PAGES; p++) {
                    for (int v = 0; v < VISITORS_A_DAY; v++) {
                        table.add(page(p), Demo.member(p * 1_000_000 + d * NEW_VISITORS_A_DAY + v));
                    }
                }
            }
            dayBytes = Files.size(day);
            command.add(day.toString());
        }
        // A month's page has more visitors than a day's: its sparse chain grows, and turns dense (about 1.5 x 2^14
        // bytes) past 3,000 registers at p = 14, so each key is given room for the dense form.
        mapsketch(List.of(
                "table",
                "create",
                monthFile.toString(),
                "--kind",
                "hll",
                "--precision",
                "14",
                "--capacity",
                Integer.toString(PAGES),
                "--bytes-per-key",
                "32768"));
        mapsketch(command);
        out.println("Sketch tables (one sketch per key in one file)");
        try (HyperLogLogTable month = HyperLogLogTable.open(monthFile, OpenMode.READ_ONLY)) {
            List<String> pages = new ArrayList<>();
            for (int p = 0; p < PAGES; p++) {
                pages.add(page(p));
            }
            int perPage = (DAY_COUNT - 1) * NEW_VISITORS_A_DAY + VISITORS_A_DAY;
            out.printf(
                    Locale.ROOT,
                    "  %d day tables %s/pages-DD.hllt: a HyperLogLog (p = 14) per page, %d pages of %d visitors a"
                            + " day, %,d bytes each%n",
                    DAY_COUNT,
                    DAYS,
                    PAGES,
                    VISITORS_A_DAY,
                    dayBytes);
            out.printf(
                    Locale.ROOT,
                    "  mapsketch table create pages-month.hllt --kind hll --precision 14 --capacity %d"
                            + " --bytes-per-key 32768%n",
                    PAGES);
            out.printf(
                    Locale.ROOT,
                    "  mapsketch table merge pages-month.hllt %s/pages-*.hllt%n    %s month visitors %,.0f (truth %,d);"
                            + " all %d pages %,.0f (truth %,d); %d keys, %d sparse, %d dense%n",
                    DAYS,
                    page(0),
                    month.estimate(page(0)),
                    perPage,
                    PAGES,
                    month.estimateUnion(pages),
                    PAGES * perPage,
                    month.keyCounts().keys(),
                    month.keyCounts().sparse(),
                    month.keyCounts().dense());
        }
    }

    /** User {@code u} has seen the clips from {@code u * 7} on, 100 of them. */
    void seenPerUser(Path dir) throws IOException {
        try (BloomTable seen = BloomTable.builder()
                .capacity(USERS)
                .expectedItemsPerKey(CLIPS_SEEN)
                .falsePositiveRate(0.01)
                .create(dir.resolve("seen.bft"), OpenMode.EXCLUSIVE)) {
            for (int u = 0; u < USERS; u++) {
                for (int c = 0; c < CLIPS_SEEN; c++) {
                    seen.add(Demo.member(u), clip(u * 7 + c));
                }
            }
            int positives = 0;
            for (int u = 0; u < USERS; u++) {
                for (int c = CLIPS_SEEN; c < 2 * CLIPS_SEEN; c++) {
                    positives += seen.mightContain(Demo.member(u), clip(u * 7 + c)) ? 1 : 0;
                }
            }
            out.printf(
                    Locale.ROOT,
                    "  Bloom table seen.bft, a filter per user (%,d users, %d clips each at 1%%):%n    %s seen %s %d,"
                            + " %s %d; unseen clips reported %.2f%% (expected %.2f%%)%n",
                    USERS,
                    CLIPS_SEEN,
                    Demo.member(7),
                    clip(49),
                    seen.mightContain(Demo.member(7), clip(49)) ? 1 : 0,
                    clip(4_242),
                    seen.mightContain(Demo.member(7), clip(4_242)) ? 1 : 0,
                    100.0 * positives / (USERS * CLIPS_SEEN),
                    100 * seen.expectedFalsePositiveRate());
        }
    }

    /** User {@code u} played the clips from {@code u * 7} on, 100 of them, clip {@code c} of them 1 + (u + c) % 5 times. */
    void playsPerUser(Path dir) throws IOException {
        Path file = dir.resolve("plays.cmt");
        StringBuilder lines = new StringBuilder();
        for (int u = 0; u < USERS; u++) {
            for (int c = 0; c < CLIPS_PLAYED; c++) {
                lines.append(Demo.member(u))
                        .append('\t')
                        .append(clip(u * 7 + c))
                        .append('\t')
                        .append(plays(u, c));
                lines.append('\n');
            }
        }
        String capacity = Integer.toString(USERS);
        mapsketch(List.of(
                "table",
                "create",
                file.toString(),
                "--kind",
                "cms",
                "--capacity",
                capacity,
                "--width",
                "200",
                "--depth",
                "4"));
        mapsketch(List.of("table", "incrby", file.toString()), lines.toString());
        try (CountMinTable plays = CountMinTable.open(file, OpenMode.READ_ONLY)) {
            int exact = 0;
            int below = 0;
            int beyond = 0;
            for (int u = 0; u < USERS; u++) {
                long bound = plays.errorBound(Demo.member(u));
                for (int c = 0; c < CLIPS_PLAYED; c++) {
                    long over = plays.estimate(Demo.member(u), clip(u * 7 + c)) - plays(u, c);
                    exact += over == 0 ? 1 : 0;
                    below += over < 0 ? 1 : 0;
                    beyond += over > bound ? 1 : 0;
                }
            }
            int pairs = USERS * CLIPS_PLAYED;
            out.printf(
                    Locale.ROOT,
                    "  Count-Min table plays.cmt, a sketch per user (%,d users, 200 x 4 counters):%n"
                            + "    mapsketch table incrby plays.cmt < plays.tsv   (%,d lines USER<TAB>CLIP<TAB>COUNT)%n"
                            + "    %s played %s %d times (truth %d), %s %d; estimates exact %.2f%%, below the truth %d,"
                            + " beyond e / 200 x a user's %d plays = %d: %d (delta %.2f%%)%n",
                    USERS,
                    pairs,
                    Demo.member(7),
                    clip(49),
                    plays.estimate(Demo.member(7), clip(49)),
                    plays(7, 0),
                    clip(4_242),
                    plays.estimate(Demo.member(7), clip(4_242)),
                    100.0 * exact / pairs,
                    below,
                    plays.totalWeight(Demo.member(7)),
                    plays.errorBound(Demo.member(7)),
                    beyond,
                    100 * plays.delta());
        }
    }

    private static int plays(int user, int clip) {
        return 1 + (user + clip) % 5;
    }

    private static String page(int p) {
        return "/page-" + p;
    }

    private static String clip(int c) {
        return "clip-" + c;
    }

    /** Runs a mapsketch verb in this JVM, failing with what it printed if it fails. */
    private static void mapsketch(List<String> args) throws IOException {
        mapsketch(args, "");
    }

    /** Runs a mapsketch verb in this JVM with {@code input} as its standard input, its answers dropped. */
    private static void mapsketch(List<String> args, String input) throws IOException {
        StringWriter printed = new StringWriter();
        PrintWriter to = new PrintWriter(printed);
        InputStream in = new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8));
        int status = Main.run(
                args.toArray(String[]::new), new CommandIo(in, new PrintWriter(Writer.nullWriter()), to, false));
        if (status != 0) {
            throw new IOException("mapsketch " + String.join(" ", args) + " failed (" + status + "): " + printed);
        }
    }
}
