/**
 * Tools as calls the harness sees, fails and judges (docs tools.md): a tool execution goes through
 * {@link dev.resilienceharness.loop.LoopRun#tool LoopRun.tool} (or an adapter's hook into its framework's tool
 * calling), meets the scenario's {@code tool_faults:}, and is recorded in the run's trace for the
 * {@code side_effects} invariant, the tool budget and the report's timeline.
 */
package dev.resilienceharness.tool;
