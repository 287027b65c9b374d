package dev.resilienceharness.junit;

import org.junit.platform.engine.EngineExecutionListener;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.ReportEntry;

/** Serialises calls to a listener, so scenarios can run on several threads. */
final class SynchronizedListener implements EngineExecutionListener {

    private final EngineExecutionListener delegate;

    SynchronizedListener(EngineExecutionListener delegate) {
        this.delegate = delegate;
    }

    @Override
    public synchronized void dynamicTestRegistered(TestDescriptor testDescriptor) {
        delegate.dynamicTestRegistered(testDescriptor);
    }

    @Override
    public synchronized void executionSkipped(TestDescriptor testDescriptor, String reason) {
        delegate.executionSkipped(testDescriptor, reason);
    }

    @Override
    public synchronized void executionStarted(TestDescriptor testDescriptor) {
        delegate.executionStarted(testDescriptor);
    }

    @Override
    public synchronized void executionFinished(TestDescriptor testDescriptor, TestExecutionResult result) {
        delegate.executionFinished(testDescriptor, result);
    }

    @Override
    public synchronized void reportingEntryPublished(TestDescriptor testDescriptor, ReportEntry entry) {
        delegate.reportingEntryPublished(testDescriptor, entry);
    }
}
