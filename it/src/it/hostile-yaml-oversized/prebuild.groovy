evaluate(new File(itSources, 'hostile.groovy'))
// A valid file padded with a 5 MiB comment: refused by its size alone.
new File(basedir, 'resilience.yaml').withWriter('UTF-8') { w ->
    w << 'version: 1\npolicy:\n  max_total_wait: 15s\nscenarios:\n  - name: plan-then-patch\n    ops: [plan, patch]\n'
    5.times { w << '# ' << ('x' * (1024 * 1024)) << '\n' }
}

rememberCassettes()
return true
