#!/usr/bin/env bash
# The built-in loop against the workshop's reference loop (bench/python/workshop_harness.py, its run_steps), on the
# same scenarios of the benchmark corpus, in one run of this script: LoopBenchmark.run (JMH, one thread) with answers
# in memory and streamed, then bench/python/loop_bench.py, then the ratios. Only the scenarios the workshop's loop can
# run are timed on both sides (no crash: it knows no restart), see WorkshopScenarios.
#
#   bench/loop-vs-python.sh                      # builds, generates the corpus if needed, measures
#   BENCH_SKIP_BUILD=1 JMH="-wi 3 -i 5" bench/loop-vs-python.sh
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
corpus=${CORPUS:-$here/target/corpus}
jmh_args=${JMH:--wi 2 -i 3 -w 5s -r 5s}

if [ -z "${BENCH_SKIP_BUILD:-}" ]; then
    (cd "$root" && ./mvnw -B -q -Pbench -pl harness-core,harness-clients/harness-openai-java,bench -am package -DskipTests -Dinvoker.skip)
fi
jar=$here/target/benchmarks.jar
if [ ! -f "$corpus/resilience.yaml" ]; then
    java -cp "$jar" dev.resilienceharness.bench.CorpusGenerator "$corpus"
fi
scenarios=$here/target/workshop-scenarios.json
java -cp "$jar" dev.resilienceharness.bench.WorkshopScenarios "$corpus" "$scenarios"

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
# shellcheck disable=SC2086
java -jar "$jar" 'LoopBenchmark.run$' -f 1 $jmh_args -p corpus="$corpus" -p scenarios=workshop \
    -p answers=all,streamed -rf json -rff "$here/target/loop-vs-python-jmh.json"
python3 "$here/python/loop_bench.py" "$scenarios" --json "$here/target/loop-vs-python-py.json"
# The same loop timed by the thread's CPU time: on a loaded machine, the comparison to trust.
for answers in all streamed; do
    out=$(java -Xms1g -Xmx1g -cp "$jar" dev.resilienceharness.bench.LoopCpuTime "$corpus" "$answers" 5 2>/dev/null)
    echo "$out" | head -1
    echo "$out" | tail -1 > "$here/target/loop-vs-python-cpu-$answers.json"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$here/target/loop-vs-python-jmh.json" "$here/target/loop-vs-python-py.json" <<'PY'
import json, sys
jmh = json.load(open(sys.argv[1]))
py = json.load(open(sys.argv[2]))
base = py["runs_per_s"]
print(f"\nworkshop run_steps (Python): {base:,.0f} scenario-runs/s over {py['scenarios']} scenarios")
for r in jmh:
    score, err = r["primaryMetric"]["score"], r["primaryMetric"]["scoreError"]
    print(f"LoopBenchmark.run answers={r['params']['answers']}: {score:,.0f} ± {err:,.0f} scenario-runs/s"
          f" = {score / base:,.0f}x the Python loop")
by = {r["params"]["answers"]: r["primaryMetric"]["score"] for r in jmh}
if "all" in by and "streamed" in by:
    print(f"streamed answers: {by['all'] / by['streamed']:.2f}x slower than answers in memory")
import os
cpu_base = py["runs_per_cpu_s"]
print(f"\nper CPU second: workshop run_steps {cpu_base:,.0f} scenario-runs")
cpu = {}
for answers in ("all", "streamed"):
    path = os.path.join(os.path.dirname(sys.argv[1]), f"loop-vs-python-cpu-{answers}.json")
    cpu[answers] = json.load(open(path))["runs_per_cpu_s"]
    print(f"built-in loop answers={answers}: {cpu[answers]:,.0f} = {cpu[answers] / cpu_base:,.1f}x the Python loop")
print(f"streamed answers: {cpu['all'] / cpu['streamed']:.2f}x slower than answers in memory (CPU time)")
PY
