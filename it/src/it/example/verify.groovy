// Compares the README's -Pbroken sample with the real run: every line of the sample appears in the build log, in
// order ("…" stands for any text), and the sample's [ERROR] lines are exactly the check goal's [ERROR] lines.
def log = new File(basedir, 'build.log').readLines()
def readme = new File(itSources, '../../../README.md').text
def command = './mvnw -B -pl example -am verify -DskipTests -Pbroken'
def start = readme.indexOf('```\n', readme.indexOf(command + '\n```')  + command.length() + 5)
def sample = readme.substring(start + 4, readme.indexOf('\n```', start + 4)).readLines()
assert sample.size() > 5 : sample

def pattern = { String line -> ~('\\Q' + line.replace('…', '\\E.*?\\Q') + '\\E( -> \\[Help 1\\])?') }
int at = 0
sample.each { line ->
    def p = pattern(line)
    while (at < log.size() && !(log[at] ==~ p)) {
        at++
    }
    assert at < log.size() : "the README's line is not in the build log (in this order):\n" + line + "\n--- log:\n" + log.join('\n')
    at++
}

def firstRun = log.subList(0, log.findIndexOf { it.startsWith('[INFO] BUILD FAILURE') } + 1)
def checkStart = firstRun.findIndexOf { it.startsWith('[INFO] --- resilience:') && it.contains(':check (default)') }
def realErrors = firstRun.subList(checkStart, firstRun.size()).findAll { it ==~ /\[ERROR\] \S+ \[\w+\].*/ }
def sampleErrors = sample.findAll { it ==~ /\[ERROR\] \S+ \[\w+\].*/ }
assert sampleErrors == realErrors : "the README shows\n" + sampleErrors.join('\n') + "\n--- the check printed\n" + realErrors.join('\n')
def summary = log.find { it.startsWith('[ERROR] Failed to execute goal') && it.contains(':check (default) on project example') }
def counted = (summary =~ /: (\d+) violations? \(/)[0][1] as int
assert counted == realErrors.size() : summary

// The README's Invariants section quotes lines of this run too.
def invariants = readme.substring(readme.indexOf('\n## Invariants\n'), readme.indexOf('\n## ', readme.indexOf('\n## Invariants\n') + 5))
invariants.readLines().findAll { it.trim().startsWith('[ERROR] ') }.each { quoted ->
    assert realErrors.contains(quoted.trim()) : "the Invariants section quotes a line the run does not print:\n" + quoted.trim()
}

// The team loop's yaml passes, with the same cassettes (requests_from) and no orphan warnings.
def second = log.subList(log.findIndexOf { it.startsWith('[INFO] BUILD FAILURE') } + 1, log.size())
assert second.any { it.startsWith('[INFO] Ran 4 scenarios of team-loop.yaml with loop com.example.agent.PoliteLoop') } : second.join('\n')
assert second.any { it.startsWith('[INFO] BUILD SUCCESS') } : second.join('\n')
assert !log.any { it.contains('orphan cassette') } : log.findAll { it.contains('orphan') }.join('\n')
return true
