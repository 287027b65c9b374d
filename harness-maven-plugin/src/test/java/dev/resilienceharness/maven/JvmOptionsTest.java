package dev.resilienceharness.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.fork.ForkProtocol;
import java.util.List;
import org.junit.jupiter.api.Test;

class JvmOptionsTest {

    @Test
    void jvm_options_are_split_on_spaces() {
        assertEquals(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseParallelGC", "-Xmn96m", "-XX:MaxTenuringThreshold=0",
                "-XX:MaxHeapFreeRatio=20", "-XX:MinHeapFreeRatio=10"),
                JvmOptions.split(ForkProtocol.DEFAULT_JVM_ARGS));
        assertEquals(List.of("-Xmx1g", "-Da=b"), JvmOptions.split("  -Xmx1g \t -Da=b "));
        assertEquals(List.of(), JvmOptions.split(" "));
        assertEquals(List.of(), JvmOptions.split(null));
    }

    @Test
    void an_option_of_the_team_s_that_names_a_word_is_found() {
        assertEquals(true, JvmOptions.anyNames(List.of("-Xmx1g", "-XX:-UseLargePages"), "HugePage", "LargePage"));
        assertEquals(false, JvmOptions.anyNames(List.of("-Xmx1g"), "HugePage", "LargePage"));
    }
}
