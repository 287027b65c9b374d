// Compares the -Pbroken sample of the README and of the getting-started page with the real run: every line of each
// sample appears in the build log, in order ("…" stands for any text), and the sample's [ERROR] lines are exactly
// the check goal's [ERROR] lines.
def log = new File(basedir, 'build.log').readLines()
def root = new File(itSources, '../../..')
def docs = new File(root, 'docs/src/site/markdown')
def command = './mvnw -B -pl example -am verify -DskipTests -Pbroken'
def sampleOf = { File file ->
    def text = file.text
    assert text.contains(command + '\n```') : file.toString() + " shows the -Pbroken command"
    def start = text.indexOf('```\n', text.indexOf(command + '\n```')  + command.length() + 5)
    text.substring(start + 4, text.indexOf('\n```', start + 4)).readLines()
}
def sample = sampleOf(new File(docs, 'getting-started.md'))
assert sample.size() > 5 : sample
assert sampleOf(new File(root, 'README.md')) == sample : "the README and getting-started.md show the same run"

def pattern = { String line -> ~('\\Q' + line.replace('…', '\\E.*?\\Q') + '\\E( -> \\[Help 1\\])?') }
int at = 0
sample.each { line ->
    def p = pattern(line)
    while (at < log.size() && !(log[at] ==~ p)) {
        at++
    }
    assert at < log.size() : "the docs' line is not in the build log (in this order):\n" + line + "\n--- log:\n" + log.join('\n')
    at++
}

def firstRun = log.subList(0, log.findIndexOf { it.startsWith('[INFO] BUILD FAILURE') } + 1)
def checkStart = firstRun.findIndexOf { it.startsWith('[INFO] --- resilience:') && it.contains(':check (default)') }
def realErrors = firstRun.subList(checkStart, firstRun.size()).findAll { it ==~ /\[ERROR\] \S+ \[\w+\].*/ }
def sampleErrors = sample.findAll { it ==~ /\[ERROR\] \S+ \[\w+\].*/ }
assert sampleErrors == realErrors : "the docs show\n" + sampleErrors.join('\n') + "\n--- the check printed\n" + realErrors.join('\n')
def summary = log.find { it.startsWith('[ERROR] Failed to execute goal') && it.contains(':check (default) on project example') }
def counted = (summary =~ /: (\d+) violations? \(/)[0][1] as int
assert counted == realErrors.size() : summary

// The refund agent with a loop that retries a timed-out refund blindly: its one violation is side_effects.
def thirdStart = log.findIndexOf(log.findIndexOf { it.startsWith('[INFO] BUILD FAILURE') } + 1) {
    it.startsWith('[INFO] BUILD SUCCESS')
} + 1
def fourthStart = log.findIndexOf(thirdStart) { it.startsWith('[INFO] BUILD FAILURE') } + 1
def third = log.subList(thirdStart, fourthStart)
assert third.any { it.startsWith('[INFO] Ran 3 scenarios of tools.yaml with loop com.example.agent.RefundLoop$Blind') } : third.join('\n')
def toolErrors = third.findAll { it ==~ /\[ERROR\] \S+ \[\w+\].*/ }
assert toolErrors.size() == 1 && toolErrors[0].startsWith('[ERROR] refund-times-out-after-it-went-through [side_effects] op \'resolve\': tool \'refund\' took effect 2 times') : toolErrors.join('\n')

// The MCP refund agent with a loop that refunds again after a lost session without looking: side_effects, naming
// the server, and the tools execution before it passes.
def fourth = log.subList(fourthStart, log.size())
assert fourth.any { it.startsWith('[INFO] Ran 2 scenarios of mcp.yaml with loop com.example.agent.McpRefundLoop$Blind') } : fourth.join('\n')
def mcpErrors = fourth.findAll { it ==~ /\[ERROR\] \S+ \[\w+\].*/ }
assert mcpErrors.size() == 1 && mcpErrors[0].startsWith('[ERROR] session-expires-mid-refund [side_effects] op \'resolve\': tool \'refund\' of MCP server \'billing\' took effect 2 times') : mcpErrors.join('\n')

// The invariants' pages quote lines of these runs too.
def invariants = new File(docs, 'invariants').listFiles().findAll { it.name.endsWith('.md') }
assert invariants.size() == 9 : invariants
def quotedLines = invariants.collectMany { it.readLines() }.findAll { it.trim().startsWith('[ERROR] ') }
assert quotedLines.size() >= 3 : quotedLines
quotedLines.each { quoted ->
    assert (realErrors + toolErrors + mcpErrors).contains(quoted.trim()) : "an invariant's page quotes a line the runs do not print:\n" + quoted.trim()
}

// The team loop's yaml passes, with the same cassettes (requests_from) and no orphan warnings.
def second = log.subList(log.findIndexOf { it.startsWith('[INFO] BUILD FAILURE') } + 1, thirdStart)
assert second.any { it.startsWith('[INFO] Ran 4 scenarios of team-loop.yaml with loop com.example.agent.PoliteLoop') } : second.join('\n')
assert second.any { it.startsWith('[INFO] BUILD SUCCESS') } : second.join('\n')
assert second.any { it.startsWith('[INFO] Ran 2 scenarios of mcp.yaml with loop com.example.agent.McpRefundLoop,') } : second.join('\n')
assert !log.any { it.contains('orphan cassette') } : log.findAll { it.contains('orphan') }.join('\n')
return true
