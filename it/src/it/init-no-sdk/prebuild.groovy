evaluate(new File(itSources, 'init-stub.groovy'))
startInitStub('it.init.nosdk.stub')
return true
