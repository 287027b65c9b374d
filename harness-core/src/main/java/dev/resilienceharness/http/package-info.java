/**
 * The provider as HTTP, for SDK adapters and the proxy: an adapter plugs a run's {@link HttpEndpoint} into its SDK,
 * which sends {@link HttpAttempt}s and gets {@link HttpAnswer}s; {@link FaultAsHttp} turns a fault into the answer a
 * provider would send, in each {@link ApiShape}.
 */
package dev.resilienceharness.http;
