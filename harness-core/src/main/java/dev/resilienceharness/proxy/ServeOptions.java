package dev.resilienceharness.proxy;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.Mode;
import java.nio.file.Path;
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
 */
@API(status = INTERNAL, since = "0.1.0")
public record ServeOptions(Path config, Mode mode, int port, String scenario, double timeFactor, Path reportDir) {

    /** The port the serve goal and the command line use unless told otherwise. */
    public static final int DEFAULT_PORT = 8089;

    static final String USAGE = "usage: ReplayProxy [--config resilience.yaml] [--mode replay|record|record-missing]"
            + " [--port " + DEFAULT_PORT + "] [--scenario NAME] [--time-factor 1.0] [--report-dir DIR]";

    public ServeOptions {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(mode, "mode");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0-65535, was " + port);
        }
        if (!(timeFactor >= 0) || Double.isInfinite(timeFactor)) {
            throw new IllegalArgumentException("the time factor must be a number of 0 or more, was " + timeFactor);
        }
    }

    /** Options without a report folder. */
    public ServeOptions(Path config, Mode mode, int port, String scenario, double timeFactor) {
        this(config, mode, port, scenario, timeFactor, null);
    }

    /**
     * Reads {@code --config}, {@code --mode}, {@code --port}, {@code --scenario}, {@code --time-factor} and
     * {@code --report-dir}.
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
                    && !name.equals("--scenario") && !name.equals("--time-factor") && !name.equals("--report-dir")) {
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
                default -> factor = factor(value);
            }
        }
        return new ServeOptions(config, mode, port, scenario, factor, reportDir);
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
