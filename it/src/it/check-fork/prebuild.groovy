// The example's own PoliteLoop, the one the README lists.
evaluate(new File(itSources, 'example-files.groovy'))
copyFromExample('src/test/java/com/example/agent/PoliteLoop.java')
return true
