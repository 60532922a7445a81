package io.mapsketch.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code mapsketch bf info FILE}, {@code cms info}, ...: {@code mapsketch info} under each family, as
 * RedisBloom names it (BF.INFO, CF.INFO, CMS.INFO, TOPK.INFO), refusing a file of another family.
 */
@Command(
        name = "info",
        description = "Prints what a file of this family holds, as 'mapsketch info' does (BF.INFO, CF.INFO,"
                + " CMS.INFO, TOPK.INFO); a file of another family is refused. Read-only.",
        footer = {"%nExample:%n  ${PARENT-COMMAND-FULL-NAME} info FILE --json"})
final class FamilyInfo implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "A file of this family (or a scalable filter's directory).")
    private Path file;

    @Option(names = "--json", description = "One JSON object instead of aligned lines.")
    private boolean json;

    @Override
    public Integer call() throws IOException {
        MapsketchCommand root = (MapsketchCommand) spec.root().userObject();
        Info.print(file, json, root.io().out(), (SketchFamily) spec.parent().userObject());
        return 0;
    }
}
