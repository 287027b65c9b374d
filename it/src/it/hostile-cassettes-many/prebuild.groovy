evaluate(new File(itSources, 'hostile.groovy'))
plantWhatGitCannotHold()
rememberCassettes()
return true
