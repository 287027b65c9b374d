#!/usr/bin/env bash
# Does each piece of the check's speed machinery earn its place? A cold full check (-Dresilience.incremental=false,
# as after any change) of a corpus, with each piece on and then off, interleaved RUNS times, every run a fresh mvn;
# prints the median wall and user+sys CPU time of each variant and its difference from the tree as it is.
#
#   bench/machinery.sh                                   # the benchmark corpus (10,000 cassettes, 2,000 scenarios)
#   SCENARIOS=200 bench/machinery.sh                     # a realistic project: 200 scenarios, 1,000 cassettes
#   RUNS=11 VARIANTS="all no-archive no-thp" bench/machinery.sh
#
# The variants:
#   all             this tree as it is
#   no-archive      -Dresilience.fork.classArchive=false: the forked JVM maps no class-data archive
#   no-thp          the forked JVM's default options with -XX:-UseTransparentHugePages: no huge pages
#   no-subset-yaml  this tree with the subset YAML reader declining every document, so snakeyaml-engine reads it
#   no-plain-json   this tree with the plain JSON reader declining every file, so Jackson reads it
# The last two are built from a copy of this tree (git worktree of HEAD) with one line changed, into a local
# repository of their own; the first three use this tree's plugin in bench/target/m2-repository, as
# bench/check-overhead.sh does.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
runs=${RUNS:-7}
scenarios=${SCENARIOS:-2000}
variants=${VARIANTS:-"all no-archive no-thp no-subset-yaml no-plain-json"}
corpus=${CORPUS:-$here/target/corpus-$scenarios}
work=$here/target/machinery
mkdir -p "$work"

repo_of() { # the local repository a variant's plugin is installed in
    case "$1" in
        no-subset-yaml | no-plain-json) echo "$work/m2-$1" ;;
        *) echo "$here/target/m2-repository" ;;
    esac
}

seed_repo() {
    if [ ! -d "$1" ]; then
        mkdir -p "$1"
        cp -r "${HOME}/.m2/repository/." "$1/"
    fi
}

# This tree's plugin.
seed_repo "$(repo_of all)"
(cd "$root" && ./mvnw -B -q install -DskipTests -Dinvoker.skip -Dmaven.javadoc.skip -pl .,harness-core,harness-maven-plugin \
    -Dmaven.repo.local="$(repo_of all)")

# The patched variants: one line changed in a copy of HEAD.
for v in $variants; do
    case "$v" in
        no-subset-yaml) file=SubsetYamlReader.java; line='static YamlNode read(byte\[\] content, int parallelKeys, int keysPerPart, String jsonKey) {' ;;
        no-plain-json) file=PlainJsonReader.java; line='public static JsonNode read(byte\[\] bytes) {' ;;
        *) continue ;;
    esac
    tree=$work/tree-$v
    rm -rf "$tree"
    git -C "$root" worktree prune
    git -C "$root" worktree add -q --detach "$tree" HEAD
    src=$(find "$tree/harness-core/src/main/java" -name "$file")
    grep -q "$line" "$src" || { echo "$v: '$line' not found in $src" >&2; exit 1; }
    sed -i "s|$line|&\n        if (Boolean.parseBoolean(\"true\")) {\n            return null;\n        }|" "$src"
    seed_repo "$(repo_of "$v")"
    (cd "$tree" && ./mvnw -B -q install -DskipTests -Dinvoker.skip -Dmaven.javadoc.skip -pl .,harness-core,harness-maven-plugin \
        -Dmaven.repo.local="$(repo_of "$v")")
    git -C "$root" worktree remove --force "$tree"
done

if [ ! -f "$corpus/resilience.yaml" ]; then
    (cd "$root" && ./mvnw -B -q -Pbench -pl harness-core,harness-clients/harness-openai-java,bench -am package \
        -DskipTests -Dinvoker.skip)
    java -cp "$here/target/benchmarks.jar" dev.resilienceharness.bench.CorpusGenerator "$corpus" \
        --scenarios "$scenarios"
fi

default_jvm_args="-XX:TieredStopAtLevel=1 -XX:+UseParallelGC -Xmn96m -XX:MaxTenuringThreshold=0 -XX:MaxHeapFreeRatio=20 -XX:MinHeapFreeRatio=10"
run_variant() {
    local v=$1 repo
    repo=$(repo_of "$v")
    local mvn=("$root/mvnw" -B -o -q "-Dmaven.repo.local=$repo" resilience:check -Dresilience.incremental=false)
    case "$v" in
        no-archive) mvn+=(-Dresilience.fork.classArchive=false) ;;
        no-thp) mvn+=("-Dresilience.fork.jvmArgs=$default_jvm_args -XX:-UseTransparentHugePages") ;;
    esac
    /usr/bin/time -f "%e %U %S" "${mvn[@]}" 2>&1 >/dev/null | tail -1
}

cd "$corpus"
echo "corpus: $corpus ($(ls cassettes | wc -l) cassettes, $(grep -c '^  - name:' resilience.yaml) scenarios; $(nproc) cores)"
# A first check of each variant makes its class archive and warms the page cache.
for v in $variants; do run_variant "$v" >/dev/null; done
results=$work/results-$scenarios.tsv
: > "$results"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$runs"); do
    for v in $variants; do
        echo "$v $(run_variant "$v")" >> "$results"
    done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$results" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, wall, user, sys_ = line.split()
    rows.setdefault(name, []).append((float(wall), float(user) + float(sys_)))
base = rows.get("all")
for name, r in rows.items():
    wall = statistics.median(x[0] for x in r)
    cpu = statistics.median(x[1] for x in r)
    extra = ""
    if base and name != "all":
        extra = (f"; against all: wall {wall - statistics.median(x[0] for x in base):+.2f} s,"
                 f" CPU {cpu - statistics.median(x[1] for x in base):+.2f} s")
    print(f"{name}: {len(r)} runs, wall median {wall:.2f} s (min {min(x[0] for x in r):.2f}),"
          f" user+sys median {cpu:.2f} s{extra}")
PY
