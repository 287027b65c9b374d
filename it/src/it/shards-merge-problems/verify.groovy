// Each merge that cannot be made fails with one [ERROR] line per problem, naming the folders, and a summary.
evaluate(new File(itSources, 'build-log.groovy'))
def folder = { String path -> basedir.toPath().resolve(path).normalize().toString() }
def failed = { String goal, String message ->
    assertErrorLine("Failed to execute goal dev.resilienceharness:harness-maven-plugin:${projectVersion}:${goal}" \
            + " (default-cli) on project it-shards-merge-problems: ${message} -> [Help 1]".toString())
}

assertErrorLine("shard 3/3 is missing: none of the 2 folders holds it; wait for its job, or add its output folder" \
        + " to resilience.merge.from")
failed('merge', 'resilience:merge: cannot merge the shards: 1 problem above')

assertErrorLine("shard 2/3 is in more than one folder: ${folder('target/s-2')} and ${folder('target/again-2')};" \
        + " give each shard once".toString())

def other = errors.find { it.startsWith("${folder('target/other-3')} (shard 3/3) ran on other inputs than".toString()) }
assert other ==~ /.* ran on other inputs than \Q${folder('target/s-1')}\E \(shard 1\/3\): the yaml, a cassette, the baseline or an option differs \(inputs [0-9a-f]{12} against [0-9a-f]{12}\); run every shard on the same commit and options/ : other

assertErrorLine("resilience.merge.from: 'nowhere/*' matches no folder under ${basedir.toPath()}; download every" \
        + " shard's output first".toString())
assert errors.count { it.endsWith('resilience:merge: cannot merge the shards: 1 problem above -> [Help 1]') } == 4

failed('check', "resilience.shard is '0/3'; give K/N, the shard to run and how many shards there are, with" \
        + " 1 <= K <= N <= 1024 (for example 2/8)")
failed('record', 'resilience:record does not run in shards; leave out -Dresilience.shard=1/2')
failed('scan-secrets', 'resilience.updateBaseline writes the fingerprint of every finding; run it without' \
        + ' -Dresilience.shard=1/2')
assert !new File(basedir, 'secrets-baseline.json').exists()

// The three shards of one run merge, and pass: the yaml has no violation.
assert log.contains('[INFO] Merged 3 shards: 5 scenarios, 6 cassettes')
assert new File(basedir, 'target/resilience/report.html').isFile()
return true
