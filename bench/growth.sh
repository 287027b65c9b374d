#!/usr/bin/env bash
# How the cost of `mvn resilience:check` grows with the corpus: 1,000, 10,000 and 100,000 cassettes with scenarios in
# proportion (one per five cassettes), each a fresh full check (-Dresilience.incremental=false) and a remembered one,
# against `mvn validate`, with user+sys CPU time and peak RSS (bench/check-overhead.sh on each corpus).
#
# The corpora declare no requests: (CorpusGenerator --requests default): with the 10,000 chat requests written out, the
# yaml of 100,000 cassettes would be 37 MB, and the config reader refuses more than 4 MiB.
#
#   bench/growth.sh                    # RUNS=3 per command and size
#   SIZES="1000 10000" RUNS=5 bench/growth.sh
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
sizes=${SIZES:-1000 10000 100000}
export RUNS=${RUNS:-3}

if [ -z "${BENCH_SKIP_BUILD:-}" ]; then
    (cd "$root" && ./mvnw -B -q -Pbench -pl harness-core,harness-clients/harness-openai-java,bench -am package -DskipTests -Dinvoker.skip)
fi
first=1
for n in $sizes; do
    corpus=$here/target/growth-$n
    if [ ! -f "$corpus/resilience.yaml" ]; then
        java -cp "$here/target/benchmarks.jar" dev.resilienceharness.bench.CorpusGenerator "$corpus" \
            --scenarios $((n / 5)) --requests default
    fi
    echo "== $n cassettes, $((n / 5)) scenarios, yaml $(wc -c < "$corpus/resilience.yaml") bytes"
    # The plugin is installed into the private repository once, before the first size (unless SKIP_INSTALL is set).
    skip=${SKIP_INSTALL:-}
    if [ -z "$first" ]; then
        skip=1
    fi
    CORPUS=$corpus RESULTS=$here/target/growth-$n.tsv SKIP_INSTALL=$skip "$here/check-overhead.sh"
    first=
done
