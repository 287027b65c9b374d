/**
 * AWS Bedrock Runtime on a scenario run: {@link dev.resilienceharness.clients.bedrock.HarnessBedrock} builds a real
 * {@code BedrockRuntimeClient} whose every HTTP attempt, the SDK's own retries included, is one call of the run, and
 * a real {@code BedrockRuntimeAsyncClient} for {@code ConverseStream}, whose event-stream frames the run delivers
 * through its {@code SdkAsyncHttpClient}.
 */
package dev.resilienceharness.clients.bedrock;
