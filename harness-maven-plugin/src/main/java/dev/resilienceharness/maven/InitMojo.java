package dev.resilienceharness.maven;

import dev.resilienceharness.init.ProjectInit;
import dev.resilienceharness.run.RunError;
import java.io.File;
import java.util.List;
import org.apache.maven.model.Dependency;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * Prepares a project for the harness: finds the SDK with an adapter among its dependencies (openai-java,
 * anthropic-java, Spring AI, langchain4j) and writes {@code resilience.yaml} with the workshop's scenarios, a loop for
 * that SDK in {@code src/test/java} (the built-in loop's variant when it has none) and the one-line test class
 * surefire needs. It never overwrites a file; it prints the XML the pom lacks and the next steps.
 */
@Mojo(name = "init", threadSafe = true, aggregator = true)
public class InitMojo extends AbstractMojo {

    /** The Maven project. */
    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    private MavenProject project;

    /** The project's folder, where init writes. */
    @Parameter(defaultValue = "${project.basedir}", readonly = true, required = true)
    private File basedir;

    /** This plugin's version, named in the XML init prints. */
    @Parameter(defaultValue = "${plugin.version}", readonly = true, required = true)
    private String version;

    /**
     * The provider's base URL written in {@code resilience.yaml}'s {@code provider:}, where recording sends; unset:
     * the SDK's provider ({@code https://api.anthropic.com/v1} for anthropic-java, else
     * {@code https://api.openai.com/v1}).
     */
    @Parameter(property = "resilience.init.baseUrl")
    private String baseUrl;

    /** Skips this goal. */
    @Parameter(property = "resilience.init.skip", defaultValue = "false")
    private boolean skip;

    @Override
    public void execute() throws MojoExecutionException {
        if (skip) {
            getLog().info("Skipping resilience:init (resilience.init.skip is true)");
            return;
        }
        List<String> dependencies = project.getDependencies().stream()
                .map(InitMojo::coordinates).toList();
        boolean pluginDeclared = project.getBuildPlugins().stream()
                .anyMatch(p -> "harness-maven-plugin".equals(p.getArtifactId()));
        try {
            new ProjectInit(basedir.toPath(), version).init(dependencies, pluginDeclared, baseUrl)
                    .forEach(getLog()::info);
        } catch (RunError e) {
            throw new MojoExecutionException(e.getMessage(), e.getCause());
        }
    }

    private static String coordinates(Dependency d) {
        return d.getGroupId() + ":" + d.getArtifactId();
    }
}
