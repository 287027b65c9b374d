package dev.resilienceharness.proxy;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.config.Durations;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * How the proxy is started, from the command line or the serve goal.
 *
 * @param config     the {@code resilience.yaml}
 * @param mode       replay (the default), record or record-missing
 * @param port       the loopback port; 0 picks a free one
 * @param scenario   the scenario whose fault plan is applied in replay mode, or {@code null} for none
 * @param timeFactor multiplies every injected delay (1 = as declared; 0.01 keeps tests fast)
 * @param reportDir  where the report of the runs served is written when the proxy stops, or {@code null} for none
 * @param mcpClientTimeout the request timeout of the MCP clients served: an MCP {@code timeout} or {@code hang} runs
 *                   it out on the run's clock, and the proxy holds the unanswered request that long (times the time
 *                   factor)
 */
@API(status = INTERNAL, since = "0.1.0")
public record ServeOptions(Path config, Mode mode, int port, String scenario, double timeFactor, Path reportDir,
        Duration mcpClientTimeout) {

    /** The port the serve goal and the command line use unless told otherwise. */
    public static final int DEFAULT_PORT = 8089;

    /**
     * The MCP Java SDK's request timeout, which Spring AI's MCP client and harness-mcp's clients keep unless told
     * otherwise; langchain4j-mcp's {@code toolExecutionTimeout} is 60 s.
     */
    public static final Duration DEFAULT_MCP_CLIENT_TIMEOUT = Duration.ofSeconds(20);

    static final String USAGE = "usage: ReplayProxy [--config resilience.yaml] [--mode replay|record|record-missing]"
            + " [--port " + DEFAULT_PORT + "] [--scenario NAME] [--time-factor 1.0] [--report-dir DIR]"
            + " [--mcp-client-timeout 20s]";

    public ServeOptions {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(mode, "mode");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0-65535, was " + port);
        }
        if (!(timeFactor >= 0) || Double.isInfinite(timeFactor)) {
            throw new IllegalArgumentException("the time factor must be a number of 0 or more, was " + timeFactor);
        }
        Objects.requireNonNull(mcpClientTimeout, "mcpClientTimeout");
        if (mcpClientTimeout.isNegative() || mcpClientTimeout.isZero()) {
            throw new IllegalArgumentException(mcpClientTimeoutError(shown(mcpClientTimeout)));
        }
    }

    /** Options for clients with the MCP Java SDK's timeout. */
    public ServeOptions(Path config, Mode mode, int port, String scenario, double timeFactor, Path reportDir) {
        this(config, mode, port, scenario, timeFactor, reportDir, DEFAULT_MCP_CLIENT_TIMEOUT);
    }

    /** Options without a report folder, for clients with the MCP Java SDK's timeout. */
    public ServeOptions(Path config, Mode mode, int port, String scenario, double timeFactor) {
        this(config, mode, port, scenario, timeFactor, null);
    }

    /**
     * Reads {@code --config}, {@code --mode}, {@code --port}, {@code --scenario}, {@code --time-factor},
     * {@code --report-dir} and {@code --mcp-client-timeout}.
     *
     * @throws IllegalArgumentException naming the bad argument, followed by the usage line
     */
    public static ServeOptions parse(String... args) {
        Path config = Path.of("resilience.yaml");
        Mode mode = Mode.REPLAY;
        int port = DEFAULT_PORT;
        String scenario = null;
        double factor = 1.0;
        Path reportDir = null;
        Duration mcpClientTimeout = DEFAULT_MCP_CLIENT_TIMEOUT;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String name = arg;
            String value = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                name = arg.substring(0, eq);
                value = arg.substring(eq + 1);
            }
            if (!name.equals("--config") && !name.equals("--mode") && !name.equals("--port")
                    && !name.equals("--scenario") && !name.equals("--time-factor") && !name.equals("--report-dir")
                    && !name.equals("--mcp-client-timeout")) {
                throw new IllegalArgumentException("unknown argument '" + arg + "'. " + USAGE);
            }
            if (value == null) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(name + " needs a value. " + USAGE);
                }
                value = args[++i];
            }
            switch (name) {
                case "--config" -> config = Path.of(value);
                case "--mode" -> {
                    mode = Mode.fromUser(value);
                    if (mode == null) {
                        throw new IllegalArgumentException(modeError(value) + " " + USAGE);
                    }
                }
                case "--port" -> port = number(name, value);
                case "--scenario" -> scenario = value;
                case "--report-dir" -> reportDir = Path.of(value);
                case "--mcp-client-timeout" -> {
                    try {
                        mcpClientTimeout = mcpClientTimeout(value);
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(e.getMessage() + " " + USAGE);
                    }
                }
                default -> factor = factor(value);
            }
        }
        return new ServeOptions(config, mode, port, scenario, factor, reportDir, mcpClientTimeout);
    }

    /**
     * The MCP client timeout {@code text} stands for ({@code 20s}, {@code 60s}, {@code 1500ms}, {@code 1m}).
     *
     * @throws IllegalArgumentException with {@link #mcpClientTimeoutError} when it is not a positive duration
     */
    public static Duration mcpClientTimeout(String text) {
        Duration d;
        try {
            d = Durations.parse(text == null ? "" : text.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(mcpClientTimeoutError(text));
        }
        if (d.isZero()) {
            throw new IllegalArgumentException(mcpClientTimeoutError(text));
        }
        return d;
    }

    /** {@code d} as the yaml writes durations, where it can. */
    static String shown(Duration d) {
        return d.isNegative() ? d.toString() : Durations.format(d);
    }

    /** The sentence for an MCP client timeout that is not a positive duration. */
    public static String mcpClientTimeoutError(String value) {
        return "resilience.mcpClientTimeout must be a positive duration, the request timeout of the MCP clients"
                + " served (20s for the MCP Java SDK and Spring AI, 60s for langchain4j-mcp), was '" + value + "'";
    }

    /** The sentence for a mode nobody knows. */
    public static String modeError(String value) {
        return "resilience.mode must be replay, record or record-missing, was '" + value + "'";
    }

    private static int number(String name, String value) {
        try {
            int n = Integer.parseInt(value);
            if (n < 0 || n > 65535) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a port number 0-65535, was '" + value + "'. " + USAGE);
        }
    }

    private static double factor(String value) {
        try {
            double d = Double.parseDouble(value);
            if (!(d >= 0) || Double.isInfinite(d)) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--time-factor must be a number of 0 or more, was '" + value + "'. "
                    + USAGE);
        }
    }
}
