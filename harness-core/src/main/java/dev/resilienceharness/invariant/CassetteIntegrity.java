package dev.resilienceharness.invariant;

import dev.resilienceharness.cassette.Cassette;
import dev.resilienceharness.cassette.CassetteException;
import dev.resilienceharness.cassette.CassetteReader;
import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.json.VolatilePaths;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import tools.jackson.databind.node.ObjectNode;

/**
 * Invariant 6, cassette integrity: every file parses, its name equals its request's fingerprint, no volatile
 * field remains, and every scenario op has a cassette. Cassettes no scenario uses are orphans: a warning, or
 * a violation when asked. Files are read one at a time on all cores and not kept, so memory stays flat; the check
 * goal reads them once for this and the secret scan together ({@link CassetteFolderPass}).
 */
public final class CassetteIntegrity {

    /**
     * What the check found.
     *
     * @param checked    cassette files read
     * @param violations broken files and missing cassettes
     * @param warnings   orphan cassettes, when they are not errors
     */
    public record Report(int checked, List<Violation> violations, List<String> warnings) {
        public Report {
            violations = List.copyOf(violations);
            warnings = List.copyOf(warnings);
        }
    }

    private CassetteIntegrity() {
    }

    /** Checks {@code config}'s cassette folder against its scenarios. */
    public static Report check(HarnessConfig config, boolean orphansAreErrors) throws IOException {
        Check check = Check.of(config, orphansAreErrors);
        List<Path> files = CassetteFolderPass.files(config);
        CassetteFolderPass.run(config, files, check);
        return check.report(files);
    }

    /** One check in progress: files arrive one at a time, from several threads. */
    public static final class Check implements CassetteFolderPass.FileCheck {

        private final HarnessConfig config;
        private final boolean orphansAreErrors;
        private final VolatilePaths volatilePaths;
        private final CassetteReader reader;
        /** The fingerprint of every scenario op's request, and the op. */
        private final Map<String, String> needed = new LinkedHashMap<>();
        private final Map<String, Boolean> present = new ConcurrentHashMap<>();
        private final List<Violation> violations = Collections.synchronizedList(new ArrayList<>());

        private Check(HarnessConfig config, boolean orphansAreErrors) {
            this.config = config;
            this.orphansAreErrors = orphansAreErrors;
            this.volatilePaths = VolatilePaths.of(config.volatilePaths());
            this.reader = new CassetteReader(config.cassettes(), volatilePaths);
        }

        /** A check of {@code config}'s cassettes against its scenarios' ops. */
        public static Check of(HarnessConfig config, boolean orphansAreErrors) {
            Check check = new Check(config, orphansAreErrors);
            CassetteStore store = CassetteStore.replaying(config.cassettes(), check.volatilePaths);
            Set<String> opsSeen = new LinkedHashSet<>();
            for (Scenario s : config.scenarios()) {
                opsSeen.addAll(s.ops());
            }
            List<String> ops = List.copyOf(opsSeen);
            // Fingerprinting only reads a request, so the declared one serves without the copy request(op) makes.
            String[] fingerprints = new String[ops.size()];
            IntStream.range(0, ops.size()).parallel().forEach(i -> {
                ObjectNode declared = config.requests().get(ops.get(i));
                fingerprints[i] = store.fingerprint(declared != null ? declared : config.request(ops.get(i)));
            });
            for (int i = 0; i < ops.size(); i++) {
                check.needed.put(fingerprints[i], ops.get(i));
            }
            return check;
        }

        @Override
        public void unreadable(Path file, CassetteException e) {
            String subject = file.toString();
            violations.add(new Violation(Invariant.CASSETTES, subject, null, null, null,
                    e.getMessage().substring(subject.length() + 2), null));
        }

        @Override
        public void read(Path file, byte[] bytes) {
            String subject = file.toString();
            String name = file.getFileName().toString();
            String stem = name.substring(0, name.length() - ".json".length());
            Cassette c;
            try {
                c = reader.parse(file, bytes);
            } catch (CassetteException e) {
                unreadable(file, e);
                return;
            }
            present.put(stem, Boolean.TRUE);
            if (!stem.equals(c.fingerprint())) {
                violations.add(new Violation(Invariant.CASSETTES, subject, needed.get(c.fingerprint()),
                        c.fingerprint() + ".json", name, "the file name is not its request's fingerprint",
                        "Rename it to " + c.fingerprint() + ".json, or re-record it with mvn resilience:record"));
            }
            ObjectNode whole = c.request().objectNode();
            whole.set("request", c.request());
            whole.set("response", c.response());
            for (String path : volatilePaths.remaining(whole)) {
                violations.add(new Violation(Invariant.CASSETTES, subject, needed.get(c.fingerprint()), null, null,
                        "volatile field " + path + " is still in the cassette",
                        "Remove it (mvn resilience:record strips volatile paths before writing)"));
            }
        }

        /** What was found once every one of {@code files} has been read. */
        public Report report(List<Path> files) {
            List<Violation> sorted = new ArrayList<>(violations);
            sorted.sort((a, b) -> a.subject().compareTo(b.subject()));
            needed.forEach((fp, op) -> {
                if (!present.containsKey(fp)) {
                    sorted.add(new Violation(Invariant.CASSETTES, config.file().toString(), op, null, null,
                            "no cassette " + fp + ".json in " + config.cassettes() + " for op '" + op + "'",
                            "Run mvn resilience:record to record it"));
                }
            });
            List<String> warnings = new ArrayList<>();
            for (Path file : files) {
                String name = file.getFileName().toString();
                String stem = name.substring(0, name.length() - ".json".length());
                if (present.containsKey(stem) && !needed.containsKey(stem)) {
                    String text = "orphan cassette: no scenario op sends its request";
                    if (orphansAreErrors) {
                        sorted.add(new Violation(Invariant.CASSETTES, file.toString(), null, null, null, text,
                                "Delete it, or run with orphans allowed"));
                    } else {
                        warnings.add(file + ": " + text);
                    }
                }
            }
            return new Report(files.size(), sorted, warnings);
        }
    }
}
