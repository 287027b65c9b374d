import dev.resilienceharness.pipeline.Harness;
import dev.resilienceharness.run.RunLog;
import java.nio.file.Path;
import java.util.List;

/**
 * The report goal's pass from plain Java, as a Gradle plugin or a CLI would run it: no Maven and no plugin on the
 * classpath, only core and its libraries. Usage: PlainReport <project folder> <output folder, relative to it>.
 */
public class PlainReport {

    public static void main(String[] args) throws Exception {
        Path base = Path.of(args[0]).toRealPath();
        RunLog log = new RunLog() {
            @Override
            public boolean isDebugEnabled() {
                return false;
            }

            @Override
            public void debug(String line) {
            }

            @Override
            public void info(String line) {
                System.out.println("[INFO] " + line);
            }

            @Override
            public void warn(String line) {
                System.out.println("[WARNING] " + line);
            }

            @Override
            public void error(String line) {
                System.out.println("[ERROR] " + line);
            }
        };
        Harness.report(log, base.resolve("resilience.yaml"), base, base.resolve(args[1]), List.of());
    }
}
