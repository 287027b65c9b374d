evaluate(new File(itSources, 'hostile.groovy'))
rememberCassettes()
return true
