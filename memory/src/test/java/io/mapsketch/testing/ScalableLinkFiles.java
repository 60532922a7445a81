package io.mapsketch.testing;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Finds the link files of a scalable Bloom filter's directory by the names the file format gives
 * them ({@code link-G-0000.sketch}, ..., G the chain's generation), written from the format's
 * description rather than the library's code.
 */
public final class ScalableLinkFiles {

    private ScalableLinkFiles() {}

    /**
     * Returns the file of link {@code index} of the directory's chain.
     *
     * @param directory the filter's directory
     * @param index the link's index
     * @return the one file of that index
     * @throws IOException if the directory cannot be listed
     * @throws AssertionError if there is no such file or more than one
     */
    public static Path link(Path directory, int index) throws IOException {
        List<Path> found = new ArrayList<>();
        String glob = String.format(Locale.ROOT, "link-????????????????-%04d.sketch", index);
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, glob)) {
            files.forEach(found::add);
        }
        if (found.size() != 1) {
            throw new AssertionError("link " + index + " of " + directory + ": found " + found);
        }
        return found.get(0);
    }
}
