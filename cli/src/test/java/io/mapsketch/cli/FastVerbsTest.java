package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The verbs run without picocli ({@link FastVerbs}) answer, refuse and exit exactly as picocli's run of
 * the same verb: each command line is run as it is (the fast path) and with {@code --} before its items
 * (which only picocli takes), in processes of their own.
 */
class FastVerbsTest {

    @TempDir
    Path dir;

    private String file(String name) {
        return dir.resolve(name).toString();
    }

    /** As {@link #sameBothWays(String, String...)}, the picocli run on {@code other}, a file like FILE. */
    private void sameOnAnother(String other, String stdin, String... args) throws Exception {
        List<String> viaPicocli = new ArrayList<>(List.of(args[0], args[1], other));
        viaPicocli.add("--");
        viaPicocli.addAll(List.of(args).subList(3, args.length));
        assertEquals(
                ChildCommand.run(dir, stdin, viaPicocli.toArray(String[]::new)),
                ChildCommand.run(dir, stdin, args),
                String.join(" ", args));
    }

    private void sameBothWays(String stdin, String... args) throws Exception {
        List<String> viaPicocli = new ArrayList<>(List.of(args).subList(0, 3));
        viaPicocli.add("--");
        viaPicocli.addAll(List.of(args).subList(3, args.length));
        ChildCommand.Result fast = ChildCommand.run(dir, stdin, args);
        ChildCommand.Result picocli = ChildCommand.run(dir, stdin, viaPicocli.toArray(String[]::new));
        assertEquals(picocli, fast, String.join(" ", args));
    }

    @Test
    void repliesRefusalsAndStatusesAreThoseOfPicocli() throws Exception {
        for (String bloom : List.of("v.bf", "w.bf")) {
            ChildCommand.run(dir, "", "bf", "create", file(bloom), "--capacity", "1000", "--error-rate", "0.01");
        }
        for (String distinct : List.of("u.hll", "t.hll")) {
            ChildCommand.run(dir, "", "hll", "create", file(distinct), "--precision", "10");
        }
        ChildCommand.run(dir, "", "cf", "create", file("s.cf"), "--capacity", "1000");
        ChildCommand.run(dir, "", "cms", "create", file("e.cms"), "--epsilon", "0.01", "--delta", "0.01");
        sameOnAnother(file("w.bf"), "", "bf", "add", file("v.bf"), "a", "b");
        sameBothWays("", "bf", "exists", file("v.bf"), "a", "c");
        sameBothWays("", "bf", "exists", file("v.bf"), "a");
        sameBothWays("", "cf", "exists", file("s.cf"), "a");
        sameBothWays("", "cms", "query", file("e.cms"), "a", "b");
        sameOnAnother(file("t.hll"), "", "hll", "add", file("u.hll"), "x", "y");
        sameBothWays("", "bf", "exists", file("missing.bf"), "a");
        sameBothWays("", "bf", "exists", file("e.cms"), "a");
        sameBothWays("", "cms", "query", file("v.bf"), "a");
        sameBothWays("a\nb\nz\n", "bf", "exists", file("v.bf"));
    }
}
