/**
 * Running scenarios: a {@link Rehearsal} is prepared once from a config and runs and checks its scenarios against a
 * loop, giving a {@link ScenarioResult} each; {@link LoopRecorder} records through a team's loop what no cassette
 * answers yet.
 */
package dev.resilienceharness.scenario;
