evaluate(new File(itSources, 'hostile.groovy'))
// "caf\u00e9" as ISO-8859-1: the lone byte 0xE9 is not UTF-8.
new File(basedir, 'cassettes/c06d109f908d3f58.json').bytes = '{\n  "request": {\n    "op": "plan"\n  },\n  "response": "caf\u00e9"\n}'.getBytes('ISO-8859-1')

rememberCassettes()
return true
