package dev.resilienceharness.config;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.yaml.YamlNode;
import dev.resilienceharness.config.yaml.YamlReader;
import dev.resilienceharness.files.BoundedFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * Whether a goal reads its config, skips its module, or fails before loading: a module without the default
 * {@code resilience.yaml} in a {@code pom} module (an aggregator) is skipped; a config the user named
 * ({@code -Dresilience.config} or the plugin's {@code <config>}) that cannot be read, or a default one that is there
 * but is not a regular file, fails the build, so that a typo never turns the gate off.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ConfigFile {

    private ConfigFile() {
    }

    /** What to do about the config. */
    public enum Verdict {
        /** Load it. */
        READ,
        /** Skip this module: an aggregator with no config of its own. */
        SKIP
    }

    /**
     * What to do about {@code file}.
     *
     * @param named      whether the user named the file, rather than the default being taken
     * @param aggregator whether the module is a {@code pom} module
     * @throws ConfigException naming the file and what it is when the goal must fail
     */
    public static Verdict check(Path file, boolean named, boolean aggregator) throws ConfigException {
        BoundedFile.Refused refused = BoundedFile.check(file);
        if (refused == null) {
            return Verdict.READ;
        }
        if (refused.missing()) {
            if (aggregator && !named) {
                return Verdict.SKIP;
            }
            throw new ConfigException(file, 0, 0, null, named ? ConfigMessages.namedConfigMissing()
                    : ConfigMessages.configMissing());
        }
        throw new ConfigException(file, 0, 0, null, ConfigMessages.configNotAFile(refused.reason()));
    }

    /**
     * Why the goals may not write to {@code output}, or {@code null} when they may: reports and JUnit files written
     * into the cassette folder would sit among the cassettes, and be read as broken ones.
     */
    public static String outputProblem(Path cassettes, Path output) {
        return ConfigLoader.inside(output, cassettes) ? ConfigMessages.outputInCassettes(output.toString(),
                cassettes.toString()) : null;
    }

    /**
     * As {@link #outputProblem(Path, Path)} for the cassette folder {@code yaml} names, before the yaml is loaded (a
     * goal may hand it to another JVM): an output under {@code buildDirectory}, where the default one is, is not
     * looked into, so that the yaml is read twice only for an output put elsewhere. A yaml that cannot be read yet
     * gives {@code null}: its load says what is wrong.
     */
    public static String outputProblem(Path yaml, Path output, Path buildDirectory) {
        if (buildDirectory != null && ConfigLoader.inside(output, buildDirectory)) {
            return null;
        }
        try {
            YamlNode root = YamlReader.read(yaml, ConfigLoader.content(yaml), "requests");
            YamlNode named = root instanceof YamlNode.Mapping top ? top.get("cassettes") : null;
            String folder = named instanceof YamlNode.Scalar s && !s.isNull() ? s.text()
                    : ConfigLoader.DEFAULT_CASSETTES;
            Path base = yaml.toAbsolutePath().getParent();
            return outputProblem(base.resolve(folder).normalize(), output);
        } catch (ConfigException | java.nio.file.InvalidPathException e) {
            return null;
        }
    }

    /**
     * The one error for a {@code cassettes:} that names a folder that does not exist, at that key of the yaml, or
     * {@code null} when the folder exists or the yaml names none (the default folder is made by the first record).
     * A replay then says this once, rather than "holds no cassette" for every op.
     */
    public static String cassettesNowhere(HarnessConfig config) {
        if (Files.isDirectory(config.cassettes())) {
            return null;
        }
        try {
            YamlNode root = YamlReader.read(config.file(), ConfigLoader.content(config.file()), "requests");
            YamlNode.Entry named = root instanceof YamlNode.Mapping top ? top.entry("cassettes") : null;
            if (named == null) {
                return null;
            }
            YamlNode at = named.value();
            return new ConfigException(config.file(), at.line(), at.column(), "cassettes",
                    ConfigMessages.cassettesNowhere(config.cassettes().toString())).getMessage();
        } catch (ConfigException e) {
            // The yaml was read a moment ago; if it cannot be now, the goal's own errors will say so.
            return null;
        }
    }
}
