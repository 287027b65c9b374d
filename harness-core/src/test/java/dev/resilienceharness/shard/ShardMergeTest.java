package dev.resilienceharness.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.json.CanonicalJson;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.pipeline.MergeRun;
import dev.resilienceharness.report.ReportJson;
import dev.resilienceharness.report.RunReport;
import dev.resilienceharness.report.ScenarioReport;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.run.RunLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class ShardMergeTest {

    @TempDir
    Path dir;

    private HarnessConfig config;

    private List<Path> shards(int n) throws Exception {
        config = ShardedRun.load(ShardedRun.corpus(dir.resolve("project")));
        List<Path> folders = new ArrayList<>();
        for (int k = 1; k <= n; k++) {
            Path out = dir.resolve("shard-" + k);
            ShardedRun.write(config, new Shard(k, n), out);
            folders.add(out);
        }
        return folders;
    }

    @Test
    void fourShardsMergedEqualTheUnshardedRun() throws Exception {
        List<Path> folders = shards(4);
        RunReport whole = ShardedRun.check(config, Shard.WHOLE);
        RunReport merged = ShardMerge.merge(folders);

        // The corpus has a violation of each kind the check finds, and every shard has a part of the work.
        assertTrue(whole.violationsByInvariant().get(Invariant.EXPECTATIONS) >= 8, whole.violationsByInvariant()::toString);
        assertTrue(whole.violationsByInvariant().get(Invariant.CASSETTES) >= 3, whole.violationsByInvariant()::toString);
        assertEquals(1, whole.violationsByInvariant().get(Invariant.SECRETS));
        for (Path f : folders) {
            assertTrue(ShardMarker.read(f.resolve(ShardMarker.FILE)).positions().size() > 0, f::toString);
        }

        JsonNode want = ReportJson.toJson(whole);
        JsonNode got = ReportJson.toJson(merged);
        assertEquals(CanonicalJson.write(want.get("summary")), CanonicalJson.write(got.get("summary")));
        assertEquals(sorted(want.get("scenarios")), sorted(got.get("scenarios")));
        assertEquals(sorted(want.get("cassettes").get("violations")), sorted(got.get("cassettes").get("violations")));
        assertEquals(sorted(want.get("cassettes").get("warnings")), sorted(got.get("cassettes").get("warnings")));
        assertEquals(want.get("cassettes").get("checked"), got.get("cassettes").get("checked"));
        assertEquals(want.get("secrets"), got.get("secrets"));
        // Beyond "order aside": the merge puts the scenarios back in the yaml's order.
        assertEquals(whole.scenarios().stream().map(ScenarioReport::name).toList(),
                merged.scenarios().stream().map(ScenarioReport::name).toList());
    }

    @Test
    void findingsOfTheTeamsOwnRulesAreMergedWithTheirIdAndNamedInTheSarif() throws Exception {
        Path yaml = ShardedRun.corpus(dir.resolve("project"));
        Path project = yaml.getParent();
        Files.writeString(project.resolve(".gitleaks.toml"), """
                [extend]
                useDefault = true

                [[rules]]
                id = "acme-internal-token"
                regex = '\''acme_live_[a-z0-9]{24}'\''
                """);
        Path cassette = project.resolve("cassettes/a312c6ca79177001.json");
        Files.writeString(cassette, Files.readString(cassette).replace("use the key sk-proj-",
                "or acme_live_q8zr2lm5np0xv7tb4kc1wd9y, use the key sk-proj-"));
        config = ShardedRun.load(yaml);
        List<Path> folders = List.of(project.resolve("shards/1"), project.resolve("shards/2"));
        ShardedRun.write(config, new Shard(1, 2), folders.get(0));
        ShardedRun.write(config, new Shard(2, 2), folders.get(1));
        List<String> shardRules = new ArrayList<>();
        for (Path f : folders) {
            ReportJson.fromJson(Json.readTree(Files.readAllBytes(f.resolve("report.json")))).secrets().findings()
                    .forEach(row -> shardRules.add(row.rule()));
        }
        assertEquals(List.of("acme-internal-token", "openai-key"), shardRules.stream().sorted().toList(),
                "one shard found both, the other none");

        Path out = dir.resolve("merged");
        List<String> log = new ArrayList<>();
        MergeRun.merge(new Lines(log), project, "shards/*", out, false);
        List<String> rules = new ArrayList<>();
        ReportJson.fromJson(Json.readTree(Files.readAllBytes(out.resolve("report.json")))).secrets().findings()
                .forEach(row -> rules.add(row.rule() + " " + row.masked()));
        assertEquals(List.of("acme-internal-token acme****", "openai-key sk-p****"), rules.stream().sorted().toList());
        JsonNode run = Json.readTree(Files.readAllBytes(out.resolve("secrets.sarif"))).get("runs").get(0);
        List<String> named = new ArrayList<>();
        run.get("results").forEach(r -> named.add(r.get("ruleId").asString()));
        assertTrue(named.contains("acme-internal-token"), named::toString);
        JsonNode descriptors = run.get("tool").get("driver").get("rules");
        int index = -1;
        for (JsonNode r : run.get("results")) {
            if (r.get("ruleId").asString().equals("acme-internal-token")) {
                index = r.get("ruleIndex").asInt();
            }
        }
        assertEquals("acme-internal-token", descriptors.get(index).get("id").asString());
        // the finding is masked wherever it is shown (the scenarios' own output is another matter)
        String secrets = Json.readTree(Files.readAllBytes(out.resolve("report.json"))).get("secrets").toString();
        for (String shown : List.of(String.join("\n", log), Files.readString(out.resolve("secrets.sarif")), secrets)) {
            assertFalse(shown.contains("q8zr2lm5np0xv7tb4kc1wd9y"), shown);
        }
        assertTrue(log.stream().anyMatch(l -> l.contains("[secrets]: Team rule (acme-internal-token) at"
                + " $.response.choices[0].message.content: acme****")), log::toString);

        // Without the team's file, the same id is an unknown rule: a damaged report.
        Files.delete(project.resolve(".gitleaks.toml"));
        RunError e = assertThrows(RunError.class,
                () -> MergeRun.merge(new Lines(new ArrayList<>()), project, "shards/*", dir.resolve("again"), false));
        assertTrue(e.getMessage().contains("no secret rule has the id 'acme-internal-token'"), e::getMessage);
    }

    /** Collects what a goal logs. */
    private record Lines(List<String> lines) implements RunLog {

        @Override
        public boolean isDebugEnabled() {
            return false;
        }

        @Override
        public void debug(String line) {
        }

        @Override
        public void info(String line) {
            lines.add(line);
        }

        @Override
        public void warn(String line) {
            lines.add(line);
        }

        @Override
        public void error(String line) {
            lines.add(line);
        }
    }

    @Test
    void aScenarioIsHeldBackByABrokenCassetteThatAnotherShardOwns() throws Exception {
        config = ShardedRun.load(ShardedRun.corpus(dir.resolve("project")));
        Shard first = new Shard(1, 4);
        assertTrue(first.owns("needs-broken-0"));
        assertTrue(!first.owns("5afdb3daebb3cfc8.json"), "the broken cassette is another shard's");
        RunReport report = ShardedRun.check(config, first);
        assertTrue(report.cassettes().warnings().contains("Scenario 'needs-broken-0' was not run: op 'broken' needs "
                + config.cassettes().resolve("5afdb3daebb3cfc8.json") + ", which has a cassette violation below"),
                report.cassettes().warnings()::toString);
        assertTrue(report.cassettes().violations().stream().noneMatch(v -> v.subject().contains("5afdb3daebb3cfc8")),
                "the owner reports the broken file, once");
    }

    @Test
    void theMergeHoldsBackAScenarioWhoseCassetteAnotherShardFoundSavedUnderAnotherName() throws Exception {
        List<Path> folders = shards(4);
        // lint's cassette is sound, but 1111111111111111.json, which shard 2 owns, holds lint's request too.
        assertTrue(new Shard(2, 4).owns("1111111111111111.json"));
        assertTrue(new Shard(1, 4).owns("lints-0"));
        RunReport first = ReportJson.fromJson(dev.resilienceharness.json.Json.readTree(
                Files.readAllBytes(folders.get(0).resolve("report.json"))));
        assertTrue(first.scenarios().stream().anyMatch(s -> s.name().equals("lints-0")), "its shard cannot know");
        RunReport merged = ShardMerge.merge(folders);
        assertTrue(merged.scenarios().stream().noneMatch(s -> s.name().startsWith("lints-")));
        assertTrue(merged.cassettes().warnings().contains("Scenario 'lints-0' was not run: op 'lint' needs "
                + config.cassettes().resolve("03df0c0d9c6c1be1.json") + ", which has a cassette violation below"),
                merged.cassettes().warnings()::toString);
        RunReport whole = ShardedRun.check(config, Shard.WHOLE);
        assertTrue(whole.cassettes().warnings().contains("Scenario 'lints-0' was not run: op 'lint' needs "
                + config.cassettes().resolve("03df0c0d9c6c1be1.json") + ", which has a cassette violation below"));
    }

    @Test
    void aMissingShardIsNamed() throws Exception {
        List<Path> folders = shards(4);
        folders.remove(2);
        ShardProblems e = assertThrows(ShardProblems.class, () -> ShardMerge.merge(folders));
        assertEquals(List.of("shard 3/4 is missing: none of the 3 folders holds it; wait for its job, or add its"
                + " output folder to resilience.merge.from"), e.problems());
    }

    @Test
    void aDuplicatedShardNamesBothFolders() throws Exception {
        List<Path> folders = shards(4);
        Path again = dir.resolve("again-2");
        ShardedRun.write(config, new Shard(2, 4), again);
        folders.add(again);
        ShardProblems e = assertThrows(ShardProblems.class, () -> ShardMerge.merge(folders));
        assertEquals(List.of("shard 2/4 is in more than one folder: " + dir.resolve("shard-2") + " and " + again
                + "; give each shard once"), e.problems());
    }

    @Test
    void aShardOnOtherInputsIsNamed() throws Exception {
        List<Path> folders = shards(2);
        Path cassette = config.cassettes().resolve("12ef5d31bdb89522.json");
        Files.writeString(cassette, Files.readString(cassette).replace("12", "13"));
        ShardedRun.write(config, new Shard(2, 2), folders.get(1));
        ShardProblems e = assertThrows(ShardProblems.class, () -> ShardMerge.merge(folders));
        assertEquals(1, e.problems().size());
        assertTrue(e.problems().get(0).startsWith(folders.get(1) + " (shard 2/2) ran on other inputs than "
                + folders.get(0) + " (shard 1/2): the yaml, a cassette, the baseline or an option differs (inputs "),
                e.problems()::toString);
    }

    @Test
    void shardsOfAnotherSplitAreNamed() throws Exception {
        List<Path> folders = shards(2);
        Path other = dir.resolve("of-three");
        ShardedRun.write(config, new Shard(3, 3), other);
        folders.add(other);
        ShardProblems e = assertThrows(ShardProblems.class, () -> ShardMerge.merge(folders));
        assertEquals(List.of(other + " holds shard 3/3, but " + folders.get(0) + " holds shard 1/2: every shard must"
                + " come from a split into the same number of shards"), e.problems());
    }

    @Test
    void aFolderWithoutMarkerOrReportIsNamed() throws Exception {
        List<Path> folders = shards(2);
        Files.delete(folders.get(0).resolve(ShardMarker.FILE));
        Files.delete(folders.get(1).resolve("report.json"));
        ShardProblems e = assertThrows(ShardProblems.class, () -> ShardMerge.merge(folders));
        assertEquals(List.of(ShardMessages.noMarker(folders.get(0)), ShardMessages.noReport(folders.get(1))),
                e.problems());
    }

    @Test
    void aReportThatIsAPipeOrADeviceIsNamedWithoutBeingRead() throws Exception {
        List<Path> folders = shards(2);
        Path pipe = folders.get(0).resolve("report.json");
        Files.delete(pipe);
        org.junit.jupiter.api.Assumptions.assumeTrue(dev.resilienceharness.files.BoundedFileTest.mkfifo(pipe));
        Path zero = folders.get(1).resolve("report.json");
        Files.delete(zero);
        Files.createSymbolicLink(zero, Path.of("/dev/zero"));
        ShardProblems e = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20),
                () -> assertThrows(ShardProblems.class, () -> ShardMerge.merge(folders)));
        assertEquals(List.of(pipe + ": cannot be read: it is a named pipe (fifo), not a regular file; it was not"
                + " opened; run the shard again", zero + ": cannot be read: it is a character device, not a regular"
                + " file; it was not opened; run the shard again"), e.problems());
    }

    @Test
    void aReportThatIsNotJsonNamesFolderFileAndLineWithoutParserInternals() throws Exception {
        List<Path> folders = shards(2);
        Path report = folders.get(1).resolve("report.json");
        Files.writeString(report, "{\n  \"scenarios\": [\n    oops\n]}");
        ShardProblems e = assertThrows(ShardProblems.class, () -> ShardMerge.merge(folders));
        assertEquals(1, e.problems().size());
        String problem = e.problems().get(0);
        assertTrue(problem.startsWith(report + ":3:"), problem);
        assertTrue(problem.contains("is not valid JSON"), problem);
        for (String internal : List.of("StreamReadFeature", "INCLUDE_SOURCE", "[Source", "REDACTED", "oops")) {
            assertFalse(problem.contains(internal), internal + " in " + problem);
        }
    }

    private static List<String> sorted(JsonNode array) {
        List<String> items = new ArrayList<>();
        array.forEach(n -> items.add(CanonicalJson.write(n)));
        Collections.sort(items);
        return items;
    }
}
