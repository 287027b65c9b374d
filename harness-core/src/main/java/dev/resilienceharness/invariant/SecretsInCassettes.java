package dev.resilienceharness.invariant;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.CassetteException;
import dev.resilienceharness.cassette.CassetteReader;
import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.cassette.ToolRecordings;
import dev.resilienceharness.concurrent.Indices;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.mcp.McpCassetteFiles;
import dev.resilienceharness.secrets.Allowlist;
import dev.resilienceharness.secrets.Baseline;
import dev.resilienceharness.secrets.Finding;
import dev.resilienceharness.secrets.GitleaksRules;
import dev.resilienceharness.secrets.MalformedJsonException;
import dev.resilienceharness.secrets.SecretScanner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;

/**
 * Invariant 7, redaction: no secret in any cassette (invariants/secrets.md). Every cassette file, and every recording
 * of a {@code replay: recorded} tool, is scanned as JSON on all cores; findings accepted by {@code redaction.allow} or
 * the baseline file are left out. A file that cannot be scanned is a violation too: it may hide a secret.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class SecretsInCassettes {

    static final String HINT = "Re-record it (mvn resilience:record redacts before writing) or remove the value;"
            + " if it is no secret, add its fingerprint to redaction.allow";

    /**
     * What the scan found.
     *
     * @param files      cassette files scanned
     * @param findings   findings not accepted, in file order; never a raw secret
     * @param violations one per finding, plus one per file that could not be scanned
     */
    public record Report(int files, List<Finding> findings, List<Violation> violations) {
        public Report {
            findings = List.copyOf(findings);
            violations = List.copyOf(violations);
        }
    }

    private SecretsInCassettes() {
    }

    /** The violation a finding is: where, which rule, the JSON path, the masked value and the fingerprint. */
    public static Violation violation(Finding f) {
        return new Violation(Invariant.SECRETS, f.location(), null, null, null, f.title() + " (" + f.ruleId()
                + ") at " + f.jsonPath() + ": " + f.masked() + ", fingerprint " + f.fingerprint(), HINT);
    }

    /**
     * Scans {@code config}'s cassette folder.
     *
     * @throws IOException when the folder cannot be listed or the baseline file cannot be read
     */
    public static Report scan(HarnessConfig config) throws IOException {
        return scan(config, true);
    }

    /**
     * Scans {@code config}'s cassette folder; with {@code reportUnreadable} false, a file that cannot be scanned
     * is left to the cassette integrity check, which reports it once (as {@code check} does).
     *
     * @throws IOException when the folder cannot be listed or the baseline file cannot be read
     */
    public static Report scan(HarnessConfig config, boolean reportUnreadable) throws IOException {
        return scan(config, reportUnreadable, file -> true);
    }

    /** As {@link #scan(HarnessConfig, boolean)}, for the cassette files {@code part} accepts only (a shard's). */
    public static Report scan(HarnessConfig config, boolean reportUnreadable, Predicate<Path> part)
            throws IOException {
        Scan scan = start(config);
        VolatilePaths volatilePaths = VolatilePaths.of(config.volatilePaths());
        CassetteReader reader = new CassetteReader(config.cassettes(), volatilePaths);
        List<Path> files = new ArrayList<>(CassetteStore.replaying(config.cassettes(), volatilePaths).files());
        files.addAll(toolRecordings(config.cassettes()));
        files.addAll(mcpSessions(config.cassettes()));
        files.removeIf(part.negate());
        Indices.forEach(files.size(), i -> {
            Path file = files.get(i);
            try {
                scan.file(file, reader.readBytes(file));
            } catch (CassetteException e) {
                scan.unreadable(e);
            }
        });
        return scan.report(files.size(), reportUnreadable);
    }

    /** The recordings of {@code replay: recorded} tools in {@code cassettes}, sorted by name; none without the folder. */
    private static List<Path> toolRecordings(Path cassettes) throws IOException {
        Path folder = ToolRecordings.folderOf(cassettes);
        return Files.isDirectory(folder) ? CassetteStore.listingOf(folder).cassettes() : List.of();
    }

    /** The recorded MCP sessions in {@code cassettes}' {@code mcp/<server>/} folders, sorted; none without them. */
    private static List<Path> mcpSessions(Path cassettes) throws IOException {
        Path folder = cassettes.resolve(McpCassetteFiles.FOLDER);
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        List<Path> sessions = new ArrayList<>();
        for (Path server : CassetteStore.listingOf(folder).entries()) {
            if (Files.isDirectory(server, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                sessions.addAll(CassetteStore.listingOf(server).cassettes());
            }
        }
        sessions.sort(null);
        return sessions;
    }

    /**
     * Starts a scan of {@code config}'s cassettes that another pass over them feeds, so that each file is read once.
     *
     * @throws IOException              when the baseline file or the team's gitleaks rules cannot be read or used
     * @throws IllegalArgumentException when an allow-list entry is not a valid regex or fingerprint
     */
    public static Scan start(HarnessConfig config) throws IOException {
        Allowlist allow = Allowlist.of(config.redaction().allow());
        Baseline baseline = Baseline.empty();
        Path baselineFile = config.redaction().baseline();
        if (baselineFile != null && Files.exists(baselineFile)) {
            try {
                baseline = Baseline.read(baselineFile);
            } catch (MalformedJsonException e) {
                throw new IOException(e.getMessage(), e);
            }
        }
        Path teamRules = config.redaction().gitleaksConfig();
        GitleaksRules rules = teamRules == null ? GitleaksRules.NONE : GitleaksRules.read(teamRules);
        return new Scan(new SecretScanner(allow, rules), baseline);
    }

    /** A scan in progress: files are handed to it from any number of threads, then it reports. */
    public static final class Scan {

        private final SecretScanner scanner;
        private final Baseline baseline;
        private final List<Finding> findings = Collections.synchronizedList(new ArrayList<>());
        private final List<Violation> unreadable = Collections.synchronizedList(new ArrayList<>());

        private Scan(SecretScanner scanner, Baseline baseline) {
            this.scanner = scanner;
            this.baseline = baseline;
        }

        /** Scans the bytes read from {@code file}. */
        public void file(Path file, byte[] bytes) {
            file(file, bytes, null);
        }

        /**
         * Scans the bytes read from {@code file}, of which {@code parsed} is the tree a strict reader read (see
         * {@link SecretScanner#scan(Path, byte[], JsonNode)}), or {@code null}.
         */
        public void file(Path file, byte[] bytes, JsonNode parsed) {
            try {
                findings.addAll(scanner.scan(file, bytes, parsed));
            } catch (MalformedJsonException e) {
                String where = file + (e.line() > 0 ? ":" + e.line() + (e.column() > 0 ? ":" + e.column() : "") : "");
                unreadable.add(new Violation(Invariant.SECRETS, where, null, null, null,
                        "cannot be scanned: " + e.getMessage().substring(where.length() + 2),
                        "Fix or remove the file so it can be scanned"));
            }
        }

        /** Notes a file that could not be read at all. */
        public void unreadable(CassetteException e) {
            unreadable.add(new Violation(Invariant.SECRETS, e.location(), null, null, null,
                    "cannot be scanned: " + e.problem(), "Fix or remove the file so it can be scanned"));
        }

        /**
         * What the scan of {@code files} files found; with {@code reportUnreadable} false, a file that could not be
         * scanned is left to the cassette integrity check, which reports it once.
         */
        public Report report(int files, boolean reportUnreadable) {
            List<Finding> kept = new ArrayList<>(baseline.unaccepted(new ArrayList<>(findings)));
            kept.sort(Comparator.comparing((Finding f) -> f.file().toString()).thenComparingInt(Finding::line)
                    .thenComparingInt(Finding::column).thenComparing(Finding::ruleId));
            List<Violation> violations = new ArrayList<>();
            for (Finding f : kept) {
                violations.add(violation(f));
            }
            List<Violation> bad = new ArrayList<>(unreadable);
            bad.sort(Comparator.comparing(Violation::subject));
            if (reportUnreadable) {
                violations.addAll(bad);
            }
            return new Report(files, kept, violations);
        }
    }
}
