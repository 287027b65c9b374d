/**
 * A check spread over CI jobs: each job checks its {@link Shard} of the scenarios ({@code -Dresilience.shard=K/N}), and
 * {@link ShardMerge} merges their outputs into the report one unsharded run would have written.
 */
package dev.resilienceharness.shard;
