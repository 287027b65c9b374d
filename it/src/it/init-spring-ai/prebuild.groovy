evaluate(new File(itSources, 'init-stub.groovy'))
startInitStub('it.init.spring.stub')
return true
