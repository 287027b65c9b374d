evaluate(new File(itSources, 'build-log.groovy'))
println log.readLines().findAll { it.contains('onvergence') || it.contains('+-') || it.contains('Reactor Summary') || it =~ /team-.* (SUCCESS|FAILURE)/ }.join('\n')
return true
