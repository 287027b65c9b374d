package dev.resilienceharness.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.pipeline.CheckRun;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ForkRequestTest {

    @Test
    void a_request_reads_back_as_it_was_written(@TempDir Path dir) throws IOException {
        CheckRun.Options options = new CheckRun.Options(dir.resolve("a folder/resilience.yaml"),
                dir.resolve("target/check-record.json"), true, false, true, "failOnOrphans=true;runs=3;abc",
                dir.resolve("cassettes"), null, "0123abcd");
        ForkRequest request = new ForkRequest(options, "com.acme.Loop", "2/8", 3,
                List.of(dir.resolve("classes").toString(), dir.resolve("lib/a b.jar").toString()),
                Map.of("greeting", "hello = world: yes\nand more", "empty", ""), true);
        Path file = dir.resolve("request.properties");
        request.write(file);
        assertEquals(request, ForkRequest.read(file));

        CheckRun.Options bare = new CheckRun.Options(dir.resolve("resilience.yaml"), dir.resolve("record.json"),
                false, true, false, null, null, null, null);
        ForkRequest plain = new ForkRequest(bare, null, null, 2, List.of(), Map.of(), false);
        plain.write(file);
        assertEquals(plain, ForkRequest.read(file));
    }
}
