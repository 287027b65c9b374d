evaluate(new File(itSources, 'init-stub.groovy'))
startInitStub('it.init.openai.stub')
return true
