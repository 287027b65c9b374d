evaluate(new File(itSources, 'build-log.groovy'))
assert errors.isEmpty() : errors.join("\n")
def lines = log.readLines()
def goals = lines.findAll { it ==~ /resilience:[a-z-]+/ }.collect { it.substring('resilience:'.length()) }
assert goals.size() >= 10 : "help lists the goals: " + goals
def start = lines.findIndexOf { it.contains('Resilience Harness') && it.contains('Plugin') }
def end = lines.findIndexOf { it.startsWith('This plugin has ') }
assert start >= 0 && end > start : log
def description = lines.subList(start + 1, end).join(' ').replaceAll(/\s+/, ' ')
goals.findAll { it != 'help' }.each { goal ->
    assert description =~ /\b${goal}\b/ : "the plugin description does not name ${goal}: ${description}"
}
return true
