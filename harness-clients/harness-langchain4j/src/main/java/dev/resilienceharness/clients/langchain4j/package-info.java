/**
 * The langchain4j adapter: {@link HarnessLangChain4j} gives a team a real langchain4j chat model bound to one scenario
 * run, through the {@link HarnessHttpClientBuilder} it plugs in; a request no cassette answers is a
 * {@link CassetteMissException}.
 */
package dev.resilienceharness.clients.langchain4j;
