// The example's own PoliteLoop, which GreetingLoop runs, and team-loop's cassettes, whose requests are these ops'.
evaluate(new File(itSources, 'example-files.groovy'))
copyFromExample('src/test/java/com/example/agent/PoliteLoop.java')
copyFromBuild('team-loop', 'cassettes')
return true
