package dev.resilienceharness.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.JsonNodeFactory;

class FileJournalTest {

    @TempDir
    Path dir;

    @Test
    void records_survive_reopening_in_order() throws IOException {
        Path file = dir.resolve("run.jsonl");
        FileJournal journal = FileJournal.open(file, w -> { });
        journal.record(Outcome.ok("plan", JsonNodeFactory.instance.objectNode().put("a", 1), 2).slow(3000, 2));
        journal.record(Outcome.stopped("patch", null, 1));
        List<Outcome> read = FileJournal.open(file, w -> { }).completed();
        assertEquals(List.of("plan", "patch"), read.stream().map(Outcome::op).toList());
        assertEquals(journal.completed().get(0).toJson(), read.get(0).toJson());
        assertEquals(2, Files.readAllLines(file).size());
    }

    @Test
    void a_torn_last_line_is_ignored_with_a_warning_and_cut_before_the_next_append() throws IOException {
        Path file = dir.resolve("run.jsonl");
        FileJournal.open(file, w -> { }).record(Outcome.degraded("plan", "timeout", 3));
        Files.writeString(file, "{\"op\":\"patch\",\"sta", StandardCharsets.UTF_8,
                java.nio.file.StandardOpenOption.APPEND);
        List<String> warnings = new ArrayList<>();
        FileJournal journal = FileJournal.open(file, warnings::add);
        assertEquals(1, journal.completed().size());
        assertEquals(1, warnings.size());
        assertTrue(warnings.get(0).contains(":2: ignoring a torn last journal line"), warnings.get(0));
        journal.record(Outcome.degraded("patch", "schema", 1));
        assertEquals(List.of("plan", "patch"),
                FileJournal.open(file, w -> { }).completed().stream().map(Outcome::op).toList());
    }

    @Test
    void a_complete_last_record_without_newline_is_kept() throws IOException {
        Path file = dir.resolve("run.jsonl");
        Files.writeString(file, "{\"op\":\"plan\",\"status\":\"degraded\",\"reason\":\"timeout\",\"attempts\":3}");
        FileJournal journal = FileJournal.open(file, w -> { });
        journal.record(Outcome.degraded("patch", "schema", 1));
        assertEquals(2, FileJournal.open(file, w -> { }).completed().size());
    }

    @Test
    void a_broken_line_in_the_middle_is_an_error_naming_file_and_line() throws IOException {
        Path file = dir.resolve("run.jsonl");
        Files.writeString(file, "{\"op\":\"plan\",\"status\":\"ok\",\"attempts\":1}\nnot json\n"
                + "{\"op\":\"patch\",\"status\":\"ok\",\"attempts\":1}\n");
        IOException e = assertThrows(IOException.class, () -> FileJournal.open(file, w -> { }));
        assertTrue(e.getMessage().startsWith(file + ":2: not a journal record"), e.getMessage());
    }

    @Test
    void checkpoints_survive_reopening_until_the_op_is_recorded() throws IOException {
        Path file = dir.resolve("run.jsonl");
        FileJournal journal = FileJournal.open(file, w -> { });
        journal.record(Outcome.degraded("plan", "timeout", 3));
        journal.checkpoint("patch", new Journal.Progress(2, 1, 1, false));
        FileJournal reopened = FileJournal.open(file, w -> { });
        assertEquals(new Journal.Progress(2, 1, 1, false), reopened.progress("patch"));
        assertEquals(1, reopened.completed().size());
        reopened.record(Outcome.degraded("patch", "schema", 3));
        assertEquals(Journal.Progress.NONE, FileJournal.open(file, w -> { }).progress("patch"));
    }
}
