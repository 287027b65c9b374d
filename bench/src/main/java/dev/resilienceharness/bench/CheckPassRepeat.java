package dev.resilienceharness.bench;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.CassetteIntegrity;
import dev.resilienceharness.invariant.SecretsInCassettes;
import dev.resilienceharness.scenario.KeptAnswers;
import java.io.IOException;
import java.lang.management.ManagementFactory;

/**
 * The first two phases of {@code resilience:check} on a corpus, the yaml and the cassette pass (integrity, the
 * secret scan fed by it, the answers kept for the runs, as the check makes them), again and again in one JVM. The
 * first iteration is what a cold check pays; the later ones are what the same work costs once the JIT has compiled
 * it. What they share is the work itself, which no JVM option takes away. Each line gives wall and process CPU time
 * (every thread: the pass's, the compilers', the collector's); a full collection before each iteration, not timed,
 * keeps one iteration's garbage out of the next one's figures.
 *
 * <pre>java [the fork's options] -cp bench/target/benchmarks.jar dev.resilienceharness.bench.CheckPassRepeat &lt;corpus&gt; [iterations, 5] [no-scan]</pre>
 *
 * With {@code no-scan} the pass feeds the secret scan nothing: the difference is what the scan costs.
 *
 * {@code bench/check-floor.sh} runs it with the forked check's options and with the JVM's defaults.
 */
public final class CheckPassRepeat {

    private CheckPassRepeat() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1 || args.length > 2 && !args[2].equals("no-scan")) {
            System.err.println("usage: CheckPassRepeat <corpus folder> [iterations, 5] [no-scan]");
            System.exit(2);
        }
        int iterations = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        boolean scanned = args.length < 3;
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        for (int it = 1; it <= iterations; it++) {
            // What the last iteration kept is garbage now: collected outside the timing, so that no iteration pays
            // for another's heap.
            System.gc();
            long wall0 = System.nanoTime();
            long cpu0 = os.getProcessCpuTime();
            HarnessConfig config = BenchCorpus.config(args[0]);
            long wall1 = System.nanoTime();
            long cpu1 = os.getProcessCpuTime();
            SecretsInCassettes.Scan secrets = SecretsInCassettes.start(config);
            KeptAnswers kept = new KeptAnswers(KeptAnswers.DEFAULT_BYTES);
            CassetteIntegrity.FileRead scan = scanned ? secrets::file : (file, bytes, parsed) -> { };
            CassetteIntegrity.Report report = CassetteIntegrity.check(config, false, scan, file -> true, kept::offer);
            int findings = secrets.report(report.checked(), false).findings().size();
            long wall2 = System.nanoTime();
            long cpu2 = os.getProcessCpuTime();
            System.out.printf("iteration %d: yaml %d ms (%.2f s of CPU), pass %d ms (%.2f s of CPU): %d cassettes,"
                    + " %d violations, %d findings%n", it, (wall1 - wall0) / 1_000_000, (cpu1 - cpu0) / 1e9,
                    (wall2 - wall1) / 1_000_000, (cpu2 - cpu1) / 1e9, report.checked(), report.violations().size(),
                    findings);
        }
    }
}
