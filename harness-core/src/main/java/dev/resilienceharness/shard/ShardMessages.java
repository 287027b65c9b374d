package dev.resilienceharness.shard;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/** Every sentence the sharding and merging of checks prints, in one place so that tests can assert them. */
@API(status = INTERNAL, since = "0.1.0")
public final class ShardMessages {

    private ShardMessages() {
    }

    /** A shard that is not {@code K/N}. */
    public static String badShard(String text) {
        return "resilience.shard is '" + text + "'; give K/N, the shard to run and how many shards there are,"
                + " with 1 <= K <= N <= " + Shard.MAX_COUNT + " (for example 2/8)";
    }

    /** The line a sharded goal logs about its scenarios. */
    public static String scenarios(Shard shard, int mine, int all) {
        return "Shard " + shard + ": " + mine + " of " + all + (all == 1 ? " scenario" : " scenarios")
                + " (by a hash of their names)";
    }

    /** The line a sharded goal logs about its cassettes. */
    public static String cassettes(Shard shard, int mine, int all) {
        return "Shard " + shard + ": " + mine + " of " + all + (all == 1 ? " cassette" : " cassettes")
                + " (by a hash of their file names)";
    }

    /** The line a sharded explore logs. */
    public static String plans(Shard shard) {
        return "Shard " + shard + ": fault plans " + shard.index() + ", " + (shard.index() + shard.count()) + ", "
                + (shard.index() + 2 * shard.count()) + " ... of each scenario's search (one in " + shard.count() + ")";
    }

    /** No folder to merge. */
    public static String noFolders() {
        return "resilience.merge.from is empty; give the shards' output folders, comma-separated or as a glob such"
                + " as shards/*";
    }

    /** A glob that matches no folder. */
    public static String globMatchesNothing(String glob, Path base) {
        return "resilience.merge.from: '" + glob + "' matches no folder under " + base
                + "; download every shard's output first";
    }

    /** A named folder that is not there. */
    public static String notAFolder(Path folder) {
        return folder + ": no such folder; download the shard's output there, or fix resilience.merge.from";
    }

    /** A folder without the shard marker. */
    public static String noMarker(Path folder) {
        return folder + ": no " + ShardMarker.FILE + ": it is not the output of a sharded run; run mvn"
                + " resilience:report -Dresilience.shard=K/N into it";
    }

    /** A marker or report that cannot be read. */
    public static String unreadable(Path file, String why) {
        return file + ": cannot be read: " + why + "; run the shard again";
    }

    /** A shard's file that is not JSON: where, and what the parser met, never the content itself. */
    public static String notJson(Path file, int line, int column, String problem) {
        return file + (line > 0 ? ":" + line + (column > 0 ? ":" + column : "") : "") + ": is not valid JSON: "
                + problem + "; run the shard again";
    }

    /** A folder with a marker but no report. */
    public static String noReport(Path folder) {
        return folder + ": no " + "report.json beside its " + ShardMarker.FILE + ": the shard's report goal did"
                + " not finish; run the shard again";
    }

    /** Two folders from splits into different numbers of shards. */
    public static String otherCount(Path folder, Shard shard, Path first, Shard firstShard) {
        return folder + " holds shard " + shard + ", but " + first + " holds shard " + firstShard
                + ": every shard must come from a split into the same number of shards";
    }

    /** One shard in several folders. */
    public static String duplicate(Shard shard, List<Path> folders) {
        return "shard " + shard + " is in more than one folder: "
                + folders.stream().map(Path::toString).collect(Collectors.joining(" and "))
                + "; give each shard once";
    }

    /** A shard no folder holds. */
    public static String missing(Shard shard, int folders) {
        return "shard " + shard + " is missing: none of the " + folders + (folders == 1 ? " folder" : " folders")
                + " holds it; wait for its job, or add its output folder to resilience.merge.from";
    }

    /** A shard that ran on other inputs than the first. */
    public static String otherInputs(Path folder, Shard shard, String inputs, Path first, Shard firstShard,
            String firstInputs) {
        return folder + " (shard " + shard + ") ran on other inputs than " + first + " (shard " + firstShard
                + "): the yaml, a cassette, the baseline or an option differs (inputs " + shortDigest(inputs)
                + " against " + shortDigest(firstInputs) + "); run every shard on the same commit and options";
    }

    /** The line a merge logs. */
    public static String merged(int shards, int scenarios, int cassettes) {
        return "Merged " + shards + (shards == 1 ? " shard: " : " shards: ") + scenarios + " scenarios, " + cassettes
                + " cassettes";
    }

    private static String shortDigest(String digest) {
        return digest.length() > 12 ? digest.substring(0, 12) : digest;
    }
}
