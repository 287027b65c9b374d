#!/usr/bin/env bash
# What `mvn resilience:check` costs on the benchmark corpus: its wall time against a bare `mvn validate` of the same
# project, and its peak RSS, both when nothing changed since the last check (the result is remembered) and for a full
# check (-Dresilience.incremental=false). Uses hyperfine when installed (apt-get install -y hyperfine), else a timed
# loop.
#
#   bench/check-overhead.sh            # installs this tree's plugin, generates the corpus if needed, measures
#   RUNS=10 bench/check-overhead.sh
#
# The plugin is installed into a private local repository (a copy of ~/.m2/repository made on first use), so the
# figures are this tree's and other builds sharing ~/.m2 cannot change them halfway.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
corpus=${CORPUS:-$here/target/corpus}
runs=${RUNS:-5}
repo=${REPO_LOCAL:-$here/target/m2-repository}

if [ ! -d "$repo" ]; then
    mkdir -p "$repo"
    cp -r "${HOME}/.m2/repository/." "$repo/"
fi
(cd "$root" && ./mvnw -B -q -o install -DskipTests -pl harness-core,harness-maven-plugin -Dmaven.repo.local="$repo")
if [ ! -f "$corpus/resilience.yaml" ]; then
    (cd "$root" && ./mvnw -B -q -o -Pbench -pl harness-core,bench package -DskipTests)
    java -cp "$here/target/benchmarks.jar" dev.resilienceharness.bench.CorpusGenerator "$corpus"
fi

mvn_cmd="$root/mvnw -B -o -q -Dmaven.repo.local=$repo"
validate="$mvn_cmd validate"
# An unchanged project: the check delivers the result it remembers in target/resilience/check-record.json.
check="$mvn_cmd resilience:check"
# Every run a full check, as on a clean clone or after a change: nothing is remembered.
full="$mvn_cmd resilience:check -Dresilience.incremental=false"
cd "$corpus"
echo "corpus: $corpus ($(ls cassettes | wc -l) cassettes, $(du -sb cassettes | cut -f1) bytes; $(nproc) cores)"
$validate >/dev/null 2>&1; $check >/dev/null  # warm the page cache and Maven's own caches; writes the record

if command -v hyperfine >/dev/null; then
    hyperfine -N --warmup 1 --runs "$runs" --export-json "$here/target/check-overhead.json" \
        -n "mvn validate" "$validate" -n "mvn resilience:check" "$check" \
        -n "mvn resilience:check -Dresilience.incremental=false" "$full"
else
    for name in validate check full; do
        cmd=${!name}
        total=0
        for _ in $(seq "$runs"); do
            start=$(date +%s%N)
            $cmd >/dev/null
            total=$((total + $(date +%s%N) - start))
        done
        echo "$cmd: mean $((total / runs / 1000000)) ms over $runs runs"
    done
fi

if [ ! -x /usr/bin/time ]; then
    echo "peak RSS needs GNU time: apt-get install -y time" >&2
    exit 0
fi
for name in validate check full; do
    cmd=${!name}
    rss=$(/usr/bin/time -f "%M" $cmd 2>&1 >/dev/null | tail -1)
    echo "peak RSS of $cmd: $((rss / 1024)) MB"
done
