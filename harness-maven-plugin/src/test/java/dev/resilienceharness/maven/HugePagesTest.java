package dev.resilienceharness.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HugePagesTest {

    private static final List<String> OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-Xmn96m");

    @Test
    void a_linux_kernel_that_offers_huge_pages_to_who_asks_gets_the_option_after_the_others(@TempDir Path dir)
            throws IOException {
        for (String mode : List.of("always [madvise] never\n", "[always] madvise never\n")) {
            Path setting = Files.writeString(dir.resolve("enabled"), mode);
            assertEquals(List.of("-XX:TieredStopAtLevel=1", "-Xmn96m", "-XX:+UseTransparentHugePages"),
                    HugePages.added(OPTIONS, "Linux", setting), mode);
            assertEquals(List.of(HugePages.OPTION), HugePages.added(List.of(), "Linux", setting), mode);
        }
    }

    @Test
    void a_kernel_that_offers_none_another_system_or_no_setting_gets_the_options_as_they_are(@TempDir Path dir)
            throws IOException {
        Path never = Files.writeString(dir.resolve("enabled"), "always madvise [never]\n");
        assertEquals(OPTIONS, HugePages.added(OPTIONS, "Linux", never));
        assertEquals(OPTIONS, HugePages.added(OPTIONS, "Linux", dir.resolve("missing")));
        // A folder where the file should be cannot be read as one.
        assertEquals(OPTIONS, HugePages.added(OPTIONS, "Linux", dir));
        Path madvise = Files.writeString(dir.resolve("offered"), "always [madvise] never\n");
        for (String system : List.of("Mac OS X", "Windows 11", "FreeBSD", "linux")) {
            assertEquals(OPTIONS, HugePages.added(OPTIONS, system, madvise), system);
        }
    }

    @Test
    void options_that_name_large_or_huge_pages_get_nothing_added(@TempDir Path dir) throws IOException {
        Path madvise = Files.writeString(dir.resolve("enabled"), "always [madvise] never\n");
        for (String own : List.of("-XX:-UseTransparentHugePages", "-XX:+UseTransparentHugePages", "-XX:+UseLargePages",
                "-XX:LargePageSizeInBytes=2m", "-XX:+UseHugeTLBFS")) {
            List<String> options = List.of("-Xmx1g", own);
            assertEquals(options, HugePages.added(options, "Linux", madvise), own);
        }
    }
}
