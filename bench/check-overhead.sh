#!/usr/bin/env bash
# What `mvn resilience:check` costs on the benchmark corpus: its wall time against a bare `mvn validate` of the same
# project, its user+sys CPU time and its peak RSS (GNU time), both when nothing changed since the last check (the result
# is remembered), for a full check (-Dresilience.incremental=false), and for a check with remembering on and no record,
# as on a clean clone in CI (a full check that writes the record). Each is run RUNS times, interleaved; the medians are
# printed, with the load average before and after (the figures of a loaded machine are noisy: compare CPU time).
#
#   bench/check-overhead.sh            # installs this tree's plugin, generates the corpus if needed, measures
#   RUNS=10 bench/check-overhead.sh
#   CORPUS=<folder> SKIP_INSTALL=1 RESULTS=<file.tsv> bench/check-overhead.sh   # another corpus (bench/growth.sh)
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
if [ -z "${SKIP_INSTALL:-}" ]; then
    (cd "$root" && ./mvnw -B -q install -DskipTests -Dinvoker.skip -pl .,harness-core,harness-maven-plugin -Dmaven.repo.local="$repo")
fi
if [ ! -f "$corpus/resilience.yaml" ]; then
    (cd "$root" && ./mvnw -B -q -Pbench -pl harness-core,harness-clients/harness-openai-java,bench -am package -DskipTests -Dinvoker.skip)
    java -cp "$here/target/benchmarks.jar" dev.resilienceharness.bench.CorpusGenerator "$corpus"
fi

mvn_cmd="$root/mvnw -B -o -q -Dmaven.repo.local=$repo"
validate="$mvn_cmd validate"
# An unchanged project: the check delivers the result it remembers in target/resilience/check-record.json.
check="$mvn_cmd resilience:check"
# Every run a full check, as on a clean clone or after a change: nothing is remembered.
full="$mvn_cmd resilience:check -Dresilience.incremental=false"
# A clean clone: no record yet, so a full check that also writes one (the record is deleted before each run).
clean="$mvn_cmd resilience:check"
record=target/resilience/check-record.json
cd "$corpus"
echo "corpus: $corpus ($(ls cassettes | wc -l) cassettes, $(du -sb cassettes | cut -f1) bytes; $(nproc) cores)"
# Warms the page cache and Maven's own caches and writes the record; a first check also makes the forked JVM's class
# archive in the private repository (README, Goals), so the runs below measure the check with it mapped.
$validate >/dev/null 2>&1; $check >/dev/null

if [ ! -x /usr/bin/time ]; then
    echo "needs GNU time for CPU time and peak RSS: apt-get install -y time" >&2
    exit 1
fi
# Each command RUNS times, a fresh JVM each time, the three interleaved so that a change in the machine's load
# touches all of them alike: wall time, user+sys CPU time (what a loaded machine disturbs least) and peak RSS.
results=${RESULTS:-$here/target/check-overhead.tsv}
: > "$results"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$runs"); do
    for name in validate check full clean; do
        cmd=${!name}
        if [ "$name" = clean ]; then
            rm -f "$record"
        fi
        m=$(/usr/bin/time -f "%e %U %S %M" $cmd 2>&1 >/dev/null | tail -1)
        echo "$name $m" >> "$results"
    done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$results" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, wall, user, sys_, rss = line.split()
    rows.setdefault(name, []).append((float(wall), float(user) + float(sys_), int(rss) / 1024))
labels = {"validate": "mvn -o validate", "check": "mvn -o resilience:check (nothing changed)",
          "full": "mvn -o resilience:check -Dresilience.incremental=false",
          "clean": "mvn -o resilience:check with no record (a clean clone)"}
base = rows["validate"]
for name in ("validate", "check", "full", "clean"):
    r = rows[name]
    wall = [x[0] for x in r]
    cpu = [x[1] for x in r]
    rss = [x[2] for x in r]
    extra = "" if name == "validate" else (
        f"; over validate: median wall +{statistics.median(wall) - statistics.median([x[0] for x in base]):.2f} s,"
        f" median CPU +{statistics.median(cpu) - statistics.median([x[1] for x in base]):.2f} s")
    print(f"{labels[name]}: {len(r)} runs, wall median {statistics.median(wall):.2f} s (min {min(wall):.2f}),"
          f" user+sys median {statistics.median(cpu):.2f} s (min {min(cpu):.2f}), peak RSS max {max(rss):.0f} MB{extra}")
PY
