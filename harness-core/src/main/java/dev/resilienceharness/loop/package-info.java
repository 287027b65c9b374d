/**
 * The agent loop under test and what it gets: a team implements {@link AgentLoop} (or uses the {@link BuiltinLoop}),
 * made by a {@link LoopFactory}, runs with a {@link LoopRun} and returns one {@link Outcome} per op.
 */
package dev.resilienceharness.loop;
