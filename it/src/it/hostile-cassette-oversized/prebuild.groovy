evaluate(new File(itSources, 'hostile.groovy'))
// A well-formed cassette of 17 MiB: refused by its size alone.
new File(basedir, 'cassettes/c06d109f908d3f58.json').withOutputStream { out ->
    out << '{"request": {"op": "plan"}, "response": {"content": "'
    byte[] chunk = ('x' * 65536).bytes
    272.times { out << chunk }
    out << '"}}'
}

rememberCassettes()
return true
