evaluate(new File(itSources, 'init-stub.groovy'))
startInitStub('it.init.anthropic.stub')
return true
