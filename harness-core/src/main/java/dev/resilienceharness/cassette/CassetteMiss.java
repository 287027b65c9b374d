package dev.resilienceharness.cassette;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;
import org.apiguardian.api.API;

/**
 * No cassette answers a request in replay mode. Names the op, the fingerprint looked for, and the nearest
 * recorded request with the JSON paths where the two differ, so the fix is obvious.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class CassetteMiss extends RuntimeException {

    private final String op;
    private final String fingerprint;
    private final String nearestFile;
    private final List<String> differingPaths;

    public CassetteMiss(String op, String fingerprint, String nearestFile, List<String> differingPaths) {
        this(op, fingerprint, nearestFile, differingPaths, HINT);
    }

    /** @param advice how to record the missing cassette, as a sentence */
    public CassetteMiss(String op, String fingerprint, String nearestFile, List<String> differingPaths,
            String advice) {
        super(message(op, fingerprint, nearestFile, differingPaths, advice), null, false, false);
        this.op = op;
        this.fingerprint = fingerprint;
        this.nearestFile = nearestFile;
        this.differingPaths = List.copyOf(differingPaths);
    }

    /** The same miss with other advice on how to record it. */
    public CassetteMiss advising(String advice) {
        return new CassetteMiss(op, fingerprint, nearestFile, differingPaths, advice);
    }

    /** What is missing and the nearest recorded request, without what to do about it. */
    public String problem() {
        return problem(op, fingerprint, nearestFile, differingPaths);
    }

    private static String message(String op, String fingerprint, String nearest, List<String> paths,
            String advice) {
        return problem(op, fingerprint, nearest, paths) + ". " + advice;
    }

    /** What to do about a miss of an op whose requests the loop's SDK builds, as {@code loop} names the loop. */
    public static String recordThroughLoop(String loop) {
        return "This op's calls come from your loop's SDK: run mvn resilience:record (loop: " + loop + "), which runs"
                + " each scenario once with no faults and records every request no cassette answers";
    }

    /** What to do about a miss, unless the one who raises it knows better ({@link #advising}). */
    public static final String HINT = "Run mvn resilience:record to record it";

    private static String problem(String op, String fingerprint, String nearest, List<String> paths) {
        StringBuilder sb = new StringBuilder("no cassette for op '").append(op).append("': looked for ")
                .append(fingerprint).append(".json");
        if (nearest != null) {
            sb.append("; the nearest recorded request is ").append(nearest);
            if (paths.isEmpty()) {
                sb.append(", which is the same request under another name");
            } else {
                sb.append(", which differs at ").append(String.join(", ", paths.size() > 8 ? paths.subList(0, 8)
                        : paths));
            }
            if (paths.size() > 8) {
                sb.append(" and ").append(paths.size() - 8).append(" more");
            }
        } else {
            sb.append("; the cassette folder holds no cassette");
        }
        return sb.toString();
    }

    public String op() {
        return op;
    }

    public String fingerprint() {
        return fingerprint;
    }

    /** The file name of the nearest recorded request, or {@code null} when the folder is empty. */
    public String nearestFile() {
        return nearestFile;
    }

    public List<String> differingPaths() {
        return differingPaths;
    }
}
