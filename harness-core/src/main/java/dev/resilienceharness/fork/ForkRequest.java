package dev.resilienceharness.fork;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.pipeline.CheckRun;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apiguardian.api.API;

/** The check's options and everything the forked JVM needs of the one that starts it. */
@API(status = INTERNAL, since = "0.1.0")
public record ForkRequest(CheckRun.Options options, String loop, String shard, int runs, List<String> testClasspath,
        Map<String, String> properties, boolean debug) {

    /** Writes the request to {@code file}, for the forked JVM to read. */
    public void write(Path file) throws IOException {
        Properties p = new Properties();
        p.setProperty("yaml", options.yaml().toString());
        p.setProperty("recordFile", options.recordFile().toString());
        p.setProperty("failOnOrphans", Boolean.toString(options.failOnOrphans()));
        p.setProperty("failOnViolation", Boolean.toString(options.failOnViolation()));
        p.setProperty("failOnStale", Boolean.toString(options.failOnStale()));
        put(p, "identity", options.identity());
        put(p, "earlierCassettes", options.earlierCassettes());
        put(p, "earlierBaseline", options.earlierBaseline());
        put(p, "earlierInputsNow", options.earlierInputsNow());
        put(p, "loop", loop);
        put(p, "shard", shard);
        p.setProperty("runs", Integer.toString(runs));
        for (int i = 0; i < testClasspath.size(); i++) {
            p.setProperty("testClasspath." + i, testClasspath.get(i));
        }
        properties.forEach((k, v) -> p.setProperty("property." + k, v));
        p.setProperty("debug", Boolean.toString(debug));
        try (OutputStream out = Files.newOutputStream(file)) {
            p.store(out, null);
        }
    }

    /** The request {@link #write} wrote to {@code file}. */
    public static ForkRequest read(Path file) throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        }
        CheckRun.Options options = new CheckRun.Options(Path.of(p.getProperty("yaml")),
                Path.of(p.getProperty("recordFile")), flag(p, "failOnOrphans"), flag(p, "failOnViolation"),
                flag(p, "failOnStale"), p.getProperty("identity"), path(p, "earlierCassettes"),
                path(p, "earlierBaseline"), p.getProperty("earlierInputsNow"));
        List<String> cp = new ArrayList<>();
        for (int i = 0; p.getProperty("testClasspath." + i) != null; i++) {
            cp.add(p.getProperty("testClasspath." + i));
        }
        Map<String, String> props = new TreeMap<>();
        for (String key : p.stringPropertyNames()) {
            if (key.startsWith("property.")) {
                props.put(key.substring("property.".length()), p.getProperty(key));
            }
        }
        return new ForkRequest(options, p.getProperty("loop"), p.getProperty("shard"),
                Integer.parseInt(p.getProperty("runs")), cp, props, flag(p, "debug"));
    }

    private static void put(Properties p, String key, Object value) {
        if (value != null) {
            p.setProperty(key, value.toString());
        }
    }

    private static boolean flag(Properties p, String key) {
        return Boolean.parseBoolean(p.getProperty(key));
    }

    private static Path path(Properties p, String key) {
        String s = p.getProperty(key);
        return s == null ? null : Path.of(s);
    }
}
