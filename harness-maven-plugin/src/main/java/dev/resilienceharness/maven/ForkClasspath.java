package dev.resilienceharness.maven;

import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.slf4j.LoggerFactory;

/**
 * The forked check's classpath: the plugin's class realm without the plugin's own jar (the forked JVM runs core's
 * {@code ForkedCheck}, which knows no Maven type), and the logging facade Maven provides, which the schema validator
 * logs to.
 */
final class ForkClasspath {

    private ForkClasspath() {
    }

    /** The jars of the plugin's realm but its own, then the logging facade's. */
    static List<String> of() throws MojoExecutionException {
        List<String> classpath = new ArrayList<>();
        if (!(ForkClasspath.class.getClassLoader() instanceof URLClassLoader realm)) {
            throw new MojoExecutionException("resilience:check cannot tell its own classpath for its JVM;"
                    + " check in Maven's JVM with -Dresilience.fork=false");
        }
        try {
            String plugin = location(ForkClasspath.class);
            for (URL url : realm.getURLs()) {
                String element = Path.of(url.toURI()).toString();
                if (!element.equals(plugin)) {
                    classpath.add(element);
                }
            }
            String facade = location(LoggerFactory.class);
            if (facade != null) {
                classpath.add(facade);
            }
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new MojoExecutionException("resilience:check cannot tell its own classpath for its JVM ("
                    + e.getMessage() + "); check in Maven's JVM with -Dresilience.fork=false", e);
        }
        return classpath;
    }

    /** Where {@code c} was loaded from, or {@code null} when that cannot be told. */
    private static String location(Class<?> c) throws URISyntaxException {
        CodeSource source = c.getProtectionDomain().getCodeSource();
        return source == null || source.getLocation() == null ? null : Path.of(source.getLocation().toURI()).toString();
    }
}
