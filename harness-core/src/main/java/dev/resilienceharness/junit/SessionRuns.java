package dev.resilienceharness.junit;

import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.platform.engine.ExecutionRequest;
import org.junit.platform.engine.support.store.Namespace;
import org.junit.platform.engine.support.store.NamespacedHierarchicalStore;

/**
 * The config files already run in this launcher session, kept in the session-level store (the parent of the
 * request's store, JUnit Platform 1.13 and later). Where there is no such store, as with an older platform
 * on the test classpath or a request built without one, each request counts as a session of its own.
 */
final class SessionRuns {

    private static final Namespace NAMESPACE = Namespace.create(ScenarioTestEngine.ENGINE_ID, "configs-run");

    private SessionRuns() {
    }

    @SuppressWarnings("unchecked")
    static Set<Path> of(ExecutionRequest request) {
        try {
            NamespacedHierarchicalStore<Namespace> store = request.getStore();
            NamespacedHierarchicalStore<Namespace> session = store.getParent().orElse(store);
            return (Set<Path>) session.getOrComputeIfAbsent(NAMESPACE, "files",
                    key -> ConcurrentHashMap.<Path>newKeySet(), Set.class);
        } catch (RuntimeException | LinkageError noStore) {
            return ConcurrentHashMap.newKeySet();
        }
    }
}
