// Shared by the builds' verify.groovy scripts, which run it first with their own binding:
//     evaluate(new File(itSources, 'build-log.groovy'))
// It gives them the build log, its [ERROR] lines without the prefix, and a check that a wanted line is among them.
log = new File(basedir, 'build.log').text
errors = log.readLines().findAll { it.startsWith('[ERROR] ') }.collect { it.substring(8) }
assertErrorLine = { String want ->
    assert errors.contains(want) : "missing [ERROR] line:\n" + want + "\n--- got:\n" + errors.join("\n")
}
