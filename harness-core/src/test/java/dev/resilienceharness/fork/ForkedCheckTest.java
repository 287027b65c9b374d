package dev.resilienceharness.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ForkedCheckTest {

    @Test
    void a_pool_worker_that_dies_of_anything_but_a_full_heap_is_reported_and_the_check_goes_on() {
        // Only running out of memory ends the JVM (it would halt this one); a team's task that throws is printed.
        PrintStream before = System.err;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setErr(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            new ForkedCheck.WorkerDied().uncaughtException(Thread.currentThread(),
                    new IllegalStateException("a team's task failed"));
        } finally {
            System.setErr(before);
        }
        assertTrue(printed.toString(StandardCharsets.UTF_8).contains("IllegalStateException: a team's task failed"),
                printed::toString);
    }

    @Test
    void a_jvm_too_full_to_make_its_verdict_sends_the_one_made_before_the_check() {
        ByteArrayOutputStream sent = new ByteArrayOutputStream();
        // A stream whose every printed line runs out of memory, as a full heap would while the line is made.
        PrintStream full = new PrintStream(sent, true, StandardCharsets.UTF_8) {
            @Override
            public void println(String line) {
                throw new OutOfMemoryError("Java heap space");
            }
        };
        Sender sender = new Sender(full);
        byte[] madeEarlier = (ForkProtocol.line("fault", ForkProtocol.outOfMemoryMessage("Java heap space")) + "\n")
                .getBytes(StandardCharsets.UTF_8);
        sender.outOfMemory("GC overhead limit exceeded", madeEarlier);
        assertEquals(ForkProtocol.MARK + "fault " + ForkProtocol.outOfMemoryMessage("Java heap space") + "\n",
                sent.toString(StandardCharsets.UTF_8));

        // With room for the line, the verdict names the JVM's own reason.
        ByteArrayOutputStream room = new ByteArrayOutputStream();
        new Sender(new PrintStream(room, true, StandardCharsets.UTF_8))
                .outOfMemory("GC overhead limit exceeded", madeEarlier);
        assertEquals(ForkProtocol.MARK + "fault " + ForkProtocol.outOfMemoryMessage("GC overhead limit exceeded")
                + System.lineSeparator(), room.toString(StandardCharsets.UTF_8));
    }
}
