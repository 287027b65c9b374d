#!/usr/bin/env bash
# Builds the benchmarks, generates the corpus (10,000 cassettes, 2,000 scenarios) and runs every benchmark with
# short settings. Extra arguments go to JMH, e.g. `bench/run.sh LoopBenchmark` or `bench/run.sh -wi 5 -i 10`.
#
#   bench/run.sh                 # all benchmarks, -f 1 -wi 2 -i 3
#   BENCH_SKIP_BUILD=1 bench/run.sh LoopBenchmark.run
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
corpus=${CORPUS:-$here/target/corpus}

if [ -z "${BENCH_SKIP_BUILD:-}" ]; then
    # harness-core is built in the same reactor, so the benchmarks measure this tree's engine, not one from ~/.m2.
    (cd "$root" && ./mvnw -B -q -Pbench -pl harness-core,harness-clients/harness-openai-java,harness-clients/harness-mcp,harness-clients/harness-google-genai,harness-clients/harness-bedrock,bench -am package -DskipTests -Dinvoker.skip)
fi
jar=$here/target/benchmarks.jar

if [ ! -f "$corpus/resilience.yaml" ]; then
    java -cp "$jar" dev.resilienceharness.bench.CorpusGenerator "$corpus"
fi

# The benchmarks find the corpus through their `corpus` parameter.
java -jar "$jar" -f 1 -wi 2 -i 3 -w 5s -r 5s -p corpus="$corpus" -rf json -rff "$here/target/jmh-result.json" "$@"
