evaluate(new File(itSources, 'init-stub.groovy'))
startInitStub('it.init.langchain4j.stub')
return true
