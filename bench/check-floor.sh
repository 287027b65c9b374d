#!/usr/bin/env bash
# What a cold full check cannot go below on this machine, measured in parts (see bench/README.md, "The floor"):
#   1. the kernel's share of reading every cassette file (cat, once the page cache holds them);
#   2. a JVM that starts and exits, with the forked check's options;
#   3. the yaml and the cassette pass, five times in one JVM, with the forked check's options (with and without the
#      secret scan) and with the JVM's defaults: the first iteration is the cold cost, the later ones the same work
#      with the JIT done;
#   4. what the quick compiler spends on one cold pass (-XX:+CITime).
#
#   bench/check-floor.sh                      # builds the benchmarks, generates the corpus if needed
#   CORPUS=<folder> BENCH_SKIP_BUILD=1 bench/check-floor.sh
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
corpus=${CORPUS:-$here/target/corpus}
jar=$here/target/benchmarks.jar
# The forked check's options (ForkProtocol.DEFAULT_JVM_ARGS in core).
fork_opts="-XX:TieredStopAtLevel=1 -XX:+UseParallelGC -Xmn96m -XX:MaxTenuringThreshold=0 -XX:MaxHeapFreeRatio=20 -XX:MinHeapFreeRatio=10"

if [ -z "${BENCH_SKIP_BUILD:-}" ]; then
    (cd "$root" && ./mvnw -B -q -Pbench -pl harness-core,harness-clients/harness-openai-java,bench -am package -DskipTests -Dinvoker.skip)
fi
if [ ! -f "$corpus/resilience.yaml" ]; then
    java -cp "$jar" dev.resilienceharness.bench.CorpusGenerator "$corpus"
fi
if [ ! -x /usr/bin/time ]; then
    echo "needs GNU time: apt-get install -y time" >&2
    exit 1
fi
main=dev.resilienceharness.bench.CheckPassRepeat
echo "corpus: $corpus ($(ls "$corpus/cassettes" | wc -l) cassettes, $(du -sb "$corpus/cassettes" | cut -f1) bytes; $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg))"

cat "$corpus"/cassettes/* > /dev/null  # into the page cache
echo "1. reading every cassette file: $( { /usr/bin/time -f '%e s wall, %U s user, %S s kernel' cat "$corpus"/cassettes/* > /dev/null; } 2>&1 )"
# shellcheck disable=SC2086
echo "2. a JVM that starts and exits: $( { /usr/bin/time -f '%e s wall, %U+%S s CPU' java $fork_opts -cp "$jar" $main "$corpus" 0; } 2>&1 )"
echo "3. the yaml and the pass, five times in one JVM, with the forked check's options:"
# shellcheck disable=SC2086
java $fork_opts -cp "$jar" $main "$corpus" 5 | sed 's/^/   /'
echo "   the same without the secret scan (what the pass costs without it):"
# shellcheck disable=SC2086
java $fork_opts -cp "$jar" $main "$corpus" 5 no-scan | sed 's/^/   /'
echo "   and with the JVM's defaults (both compilers):"
java -cp "$jar" $main "$corpus" 5 | sed 's/^/   /'
echo "4. the quick compiler on one cold pass:"
# shellcheck disable=SC2086
java $fork_opts -XX:+CITime -cp "$jar" $main "$corpus" 1 | grep -E "^iteration|Total compilation time|Total compiled methods" | sed 's/^ */   /'
