package dev.resilienceharness.shard;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apiguardian.api.API;

/**
 * The shard output folders {@code resilience.merge.from} names: a comma-separated list of folders, each of which may
 * be a glob ({@code shards/*}, {@code target/shard-?}), relative to the project's folder unless absolute.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ShardFolders {

    private ShardFolders() {
    }

    /**
     * The folders, in the order given; a glob's matches sorted by path.
     *
     * @throws ShardProblems when the list is empty, a glob matches no folder or a named folder does not exist
     */
    public static List<Path> resolve(Path base, String spec) throws ShardProblems {
        List<Path> folders = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (String piece : spec == null ? new String[0] : spec.split(",")) {
            String item = piece.strip();
            if (item.isEmpty()) {
                continue;
            }
            if (isGlob(item)) {
                List<Path> matches = glob(base, item);
                if (matches.isEmpty()) {
                    problems.add(ShardMessages.globMatchesNothing(item, base));
                }
                folders.addAll(matches);
            } else {
                Path folder = base.resolve(item).normalize();
                if (Files.isDirectory(folder)) {
                    folders.add(folder);
                } else {
                    problems.add(ShardMessages.notAFolder(folder));
                }
            }
        }
        if (folders.isEmpty() && problems.isEmpty()) {
            problems.add(ShardMessages.noFolders());
        }
        if (!problems.isEmpty()) {
            throw new ShardProblems(problems);
        }
        return folders;
    }

    private static boolean isGlob(String item) {
        return item.chars().anyMatch(c -> c == '*' || c == '?' || c == '[' || c == '{');
    }

    /** The folders matching {@code glob}: the walk starts at its last folder without a wildcard. */
    private static List<Path> glob(Path base, String glob) {
        Path pattern = base.resolve(glob.replace('\\', '/')).normalize();
        Path root = pattern.getRoot() == null ? Path.of("") : pattern.getRoot();
        int depth = 0;
        Path start = root;
        boolean literal = true;
        for (Path part : pattern) {
            if (literal && !isGlob(part.toString())) {
                start = start.resolve(part);
            } else {
                literal = false;
                depth++;
            }
        }
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
        Path from = start;
        if (!Files.isDirectory(from)) {
            return List.of();
        }
        final int maxDepth = depth;
        try (Stream<Path> walk = Files.walk(from, maxDepth)) {
            return walk.filter(p -> from.relativize(p).getNameCount() == maxDepth)
                    .filter(Files::isDirectory).filter(matcher::matches).sorted().toList();
        } catch (IOException | java.io.UncheckedIOException e) {
            return List.of();
        }
    }
}
