// Ten builds in one log: full (fails), remembered (fails the same way), another yaml (full, passes), that yaml
// again (remembered, passes), remembering off (full, fails), a damaged record (warned about, full, fails),
// report then check in one build (check reuses report's pass, fails, and remembers nothing), the first yaml again
// (full: the record is the other yaml's), the plugin with another version of a library (full, fails), and a full
// check with -X, which times its phases.
def log = new File(basedir, 'build.log').text
def lines = log.readLines()
def count = { String text -> lines.count { it.contains(text) } }
def violation = "[ERROR] hopeful [expectations] op 'patch': expect.status is [ok, ok] but the outcomes show [ok, stopped] (bound [ok, ok], actual [ok, stopped]). Fix the loop, or the scenario's expect list if the policy changed on purpose"
assert count(violation) == 8 : "the violation should be reported by builds 1, 2 and 5 to 10:\n" + log
assert count('Ran 1 scenario of resilience.yaml') == 7 : "builds 1 and 5 to 10 run the scenarios of resilience.yaml"
assert count('Ran 1 scenario of resilience-accepting.yaml') == 1 : "build 3 runs the other yaml's scenarios"
def remembered = lines.findAll { it.contains('Nothing changed since the last check') }
assert remembered.size() == 2 : "builds 2 and 4 deliver the remembered result:\n" + remembered.join('\n')
remembered.each {
    assert it == "[INFO] Nothing changed since the last check (target${File.separator}resilience${File.separator}check-record.json): 6 cassettes checked, 1 scenario run, 6 cassettes scanned for secrets with 0 findings. -Dresilience.incremental=false checks again".toString() : it
}
// The orphan warnings are remembered too: four cassettes no op sends, in each of the ten builds.
assert count('orphan cassette: no scenario op sends its request') == 4 * 10
// Build 10's phases, each with its wall and CPU time.
def timed = { String what -> lines.count { it ==~ /\[DEBUG\] ${java.util.regex.Pattern.quote(what)} in \d+ ms \(\d+\.\d\d s of CPU\)/ } }
assert timed('Loaded resilience.yaml') == 1 : "build 10 times loading the yaml:\n" + lines.findAll { it.contains('[DEBUG] Loaded') }.join('\n')
assert timed('Read, checked and scanned 6 cassettes') == 1
assert timed('Ran 1 scenario') == 1
assert new File(basedir, 'target/resilience/check-record.json').isFile()
def damaged = new File(basedir, 'bad-record/check-record.json')
assert count("[WARNING] ${damaged.canonicalPath}: ignoring the last check's record, which cannot be read (not a check record: ".toString()) == 1
assert damaged.text.startsWith('{"format":1,') : "build 6 writes the record again:\n" + damaged.text
// A pass made before check could take its digest is not remembered: a file changed in between would be missed.
assert count('Reusing this build\'s earlier pass over resilience.yaml') == 1
assert new File(basedir, 'after-report/report.html').isFile()
assert !new File(basedir, 'after-report/check-record.json').exists()
return true
