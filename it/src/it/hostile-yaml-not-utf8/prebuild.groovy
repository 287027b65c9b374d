evaluate(new File(itSources, 'hostile.groovy'))
// "caf\u00e9" as ISO-8859-1: the lone byte 0xE9 is not UTF-8.
new File(basedir, 'resilience.yaml').bytes = ('version: 1\npolicy:\n  max_total_wait: 15s\nscenarios:\n'
        + '  - name: caf\u00e9\n    ops: [plan, patch]\n').getBytes('ISO-8859-1')

rememberCassettes()
return true
