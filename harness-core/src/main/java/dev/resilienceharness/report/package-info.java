/**
 * The reports a check writes: {@link ReportWriter} puts {@code report.html}, {@code report.json} and JUnit XML into one
 * folder from a {@link RunReport} of {@link ScenarioReport}s.
 */
package dev.resilienceharness.report;
