package dev.resilienceharness.bench;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.SetupException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;

/**
 * {@code LoopBenchmark.run} timed by the thread's CPU time as well as by the clock: scenario-runs per second of the
 * built-in loop on one thread over the scenarios the workshop's loop can run, so that it compares with
 * {@code bench/python/loop_bench.py}'s runs per CPU second on a machine whose other work leaves either only part of a
 * core. JMH's figure ({@code bench/loop-vs-python.sh} runs both) is the one for a quiet machine.
 *
 * <pre>java -cp bench/target/benchmarks.jar dev.resilienceharness.bench.LoopCpuTime &lt;corpus&gt; all|streamed [seconds]</pre>
 */
public final class LoopCpuTime {

    private LoopCpuTime() {
    }

    public static void main(String[] args) throws SetupException {
        if (args.length < 2) {
            System.err.println("usage: LoopCpuTime <corpus folder> all|streamed [seconds per iteration, 5]");
            System.exit(2);
        }
        HarnessConfig config = BenchCorpus.config(args[0]);
        boolean all = args[1].equals("all");
        double seconds = args.length > 2 ? Double.parseDouble(args[2]) : 5;
        Rehearsal rehearsal = all ? Rehearsal.prepare(config, LoopFactory.builtin(), Integer.MAX_VALUE)
                : Rehearsal.prepare(config, LoopFactory.builtin());
        List<Scenario> scenarios = WorkshopScenarios.of(config);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long sink = 0;
        double bestWall = 0;
        double bestCpu = 0;
        StringBuilder iterations = new StringBuilder();
        // Two warm-up iterations, as bench/run.sh gives JMH, then three measured.
        for (int it = 0; it < 5; it++) {
            long runs = 0;
            long wall0 = System.nanoTime();
            long cpu0 = threads.getCurrentThreadCpuTime();
            while (System.nanoTime() - wall0 < seconds * 1e9) {
                for (Scenario s : scenarios) {
                    sink += rehearsal.run(s, null).outcomes().size();
                }
                runs += scenarios.size();
            }
            double wall = (System.nanoTime() - wall0) / 1e9;
            double cpu = (threads.getCurrentThreadCpuTime() - cpu0) / 1e9;
            if (it >= 2) {
                bestWall = Math.max(bestWall, runs / wall);
                bestCpu = Math.max(bestCpu, runs / cpu);
                iterations.append(iterations.length() == 0 ? "" : ", ").append(String.format("%,.0f", runs / cpu));
            }
        }
        System.out.printf("built-in loop, answers=%s: %d scenarios, %,.0f scenario-runs/s (wall), %,.0f per CPU second;"
                + " iterations per CPU second %s (%d)%n", args[1], scenarios.size(), bestWall, bestCpu, iterations,
                sink % 10);
        System.out.printf("{\"answers\": \"%s\", \"runs_per_s\": %.1f, \"runs_per_cpu_s\": %.1f}%n", args[1], bestWall,
                bestCpu);
    }
}
