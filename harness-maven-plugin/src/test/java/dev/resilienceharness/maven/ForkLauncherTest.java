package dev.resilienceharness.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.fork.ForkProtocol;
import dev.resilienceharness.fork.ForkRequest;
import dev.resilienceharness.fork.ForkedCheck;
import dev.resilienceharness.incremental.CheckRecord;
import dev.resilienceharness.pipeline.CheckRun;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.maven.plugin.MojoExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ForkLauncherTest {

    @Test
    void the_forked_jvm_sends_its_error_with_the_yaml_it_names(@TempDir Path dir) {
        Path yaml = dir.resolve("resilience.yaml");
        Lines log = new Lines();
        MojoExecutionException e = assertThrows(MojoExecutionException.class,
                () -> ForkLauncher.launch(log, java(), List.of(), classpath(), request(yaml)));
        assertTrue(e.getMessage().contains(yaml.toString()), e.getMessage());
        // It loaded nothing, so it logged nothing but how it was started and ended.
        assertEquals(List.of(), log.lines.stream().filter(l -> !l.startsWith("debug ")).toList());
        assertTrue(log.lines.get(0).startsWith("debug Checking in a JVM of its own: " + java()), log.lines::toString);
    }

    @Test
    void a_jvm_that_ends_without_a_verdict_is_an_error_after_its_output(@TempDir Path dir) {
        Lines log = new Lines();
        // -version prints the version and ends the JVM before the main class runs.
        MojoExecutionException e = assertThrows(MojoExecutionException.class,
                () -> ForkLauncher.launch(log, java(), List.of("-version"), classpath(),
                        request(dir.resolve("resilience.yaml"))));
        assertTrue(e.getMessage().startsWith("resilience:check: its JVM (" + java() + " -version "), e.getMessage());
        assertTrue(e.getMessage().contains(") ended with exit code 0 before it gave a verdict; its output is above."
                + " Mend resilience.fork.jvmArgs, or check in Maven's JVM with -Dresilience.fork=false"),
                e.getMessage());
        assertTrue(log.lines.stream().anyMatch(l -> l.startsWith("info ") && l.contains("version")), log.lines::toString);
    }

    @Test
    void a_jvm_out_of_memory_says_how_to_give_it_more(@TempDir Path dir) throws IOException {
        // 30,000 requests, about 3 MB of yaml: more than 24 MB of heap once loaded.
        StringBuilder yaml = new StringBuilder("version: 1\nrequests:\n");
        for (int i = 0; i < 30_000; i++) {
            yaml.append("  op").append(i).append(": {model: gpt-4o, messages: [{role: user, content: message ")
                    .append(i).append(" with some words in it}]}\n");
        }
        Path file = dir.resolve("resilience.yaml");
        Files.writeString(file, yaml);
        // Where the heap runs out differs from run to run: in the yaml's parts on a fork/join worker, the worker itself
        // dies, and the JVM must end all the same (ForkedCheck.WorkerDied) rather than wait for its part for ever.
        for (int run = 0; run < 4; run++) {
            Lines log = new Lines();
            MojoExecutionException e = assertTimeoutPreemptively(Duration.ofSeconds(60),
                    () -> assertThrows(MojoExecutionException.class,
                            () -> ForkLauncher.launch(log, java(), List.of("-Xmx24m"), classpath(), request(file))));
            assertEquals("resilience:check ran out of memory in its JVM (Java heap space); give it more with"
                    + " -Dresilience.fork.jvmArgs, such as \"" + ForkProtocol.DEFAULT_JVM_ARGS + " -Xmx2g\"",
                    e.getMessage());
        }
    }

    /** A project the check passes: a yaml and one cassette folder, nothing to run. */
    private static Path passingProject(Path dir) throws IOException {
        Path yaml = dir.resolve("project/resilience.yaml");
        Files.createDirectories(yaml.resolveSibling("cassettes"));
        Files.writeString(yaml, "version: 1\n");
        return yaml;
    }

    /**
     * The tests' classpath as the plugin's realm has it, jars only (HotSpot archives classes from jars only): each
     * folder of main classes (the plugin's, and the core's in a reactor that has not packaged it) in a jar of its own,
     * then the jars they need; the tests' own classes are left out.
     */
    private static List<String> jars(Path dir) throws IOException {
        List<String> jars = new ArrayList<>();
        for (String element : classpath()) {
            Path p = Path.of(element);
            if (Files.isDirectory(p) && !p.getFileName().toString().equals("test-classes")) {
                Path jar = dir.resolve("classes-" + jars.size() + ".jar");
                try (var out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar));
                        var files = Files.walk(p)) {
                    for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                        out.putNextEntry(new java.util.jar.JarEntry(p.relativize(f).toString().replace('\\', '/')));
                        out.write(Files.readAllBytes(f));
                        out.closeEntry();
                    }
                }
                jars.add(jar.toString());
            } else if (Files.isRegularFile(p)) {
                jars.add(element);
            }
        }
        return jars;
    }

    /** The lines logged above debug that speak of class sharing or a crash: none, whatever the archive's fate. */
    private static List<String> sharingNews(Lines log) {
        return log.lines.stream().filter(l -> !l.startsWith("debug ")).filter(l -> l.contains("cds")
                || l.contains("CDS") || l.contains("archive") || l.contains("SIGBUS") || l.contains("# ")
                || l.contains("VM")).toList();
    }

    private static List<String> commands(Lines log) {
        return log.lines.stream().filter(l -> l.startsWith("debug Checking in a JVM of its own: ")).toList();
    }

    /**
     * A remembered check with no record yet takes the record's digest in the forked JVM, from the yaml's bytes it
     * loaded and the cassettes its pass read: the next check in Maven's JVM, reading every file again, finds the same.
     */
    @Test
    void the_record_a_forked_check_writes_has_the_digest_maven_takes_of_the_same_files(@TempDir Path dir)
            throws Exception {
        Path yaml = passingProject(dir);
        Path cassettes = yaml.resolveSibling("cassettes");
        Files.writeString(cassettes.resolve("README.md"), "recorded against the staging endpoint");
        Files.createDirectories(cassettes.resolve("old"));
        Path linked = dir.resolve("linked/resilience.yaml");
        Files.createDirectories(linked.getParent());
        Files.createSymbolicLink(linked, yaml);
        Files.createSymbolicLink(linked.resolveSibling("cassettes"), cassettes);
        for (Path checked : List.of(yaml, linked)) {
            Path record = checked.resolveSibling("record.json");
            CheckRun.Options options = new CheckRun.Options(checked, record, false, true, false, "engine-1;runs=2",
                    null, null, null);
            ForkLauncher.launch(new Lines(), java(), List.of(), classpath(),
                    new ForkRequest(options, null, null, 2, List.of(), Map.of(), false));
            assertEquals(CheckRecord.inputs("engine-1;runs=2", checked, checked.resolveSibling("cassettes")
                    .normalize(), null), CheckRecord.read(record).inputs(), checked.toString());
        }
    }

    /**
     * The check's JVM runs core's side of the fork: with neither Maven's API nor the plugin's classes on its classpath
     * (as the plugin's launcher starts it, {@link ForkClasspath}), it checks and gives its verdict.
     */
    @Test
    void the_check_s_jvm_needs_neither_maven_nor_the_plugin(@TempDir Path dir) throws Exception {
        Path yaml = passingProject(dir);
        List<String> coreOnly = classpath().stream().filter(e -> !e.contains("harness-maven-plugin")
                && !e.contains(File.separator + "apache" + File.separator + "maven" + File.separator)).toList();
        assertTrue(coreOnly.size() < classpath().size(), classpath()::toString);
        assertTrue(coreOnly.stream().noneMatch(e -> e.contains("maven-plugin-api")), coreOnly::toString);
        Lines log = new Lines();
        ForkLauncher.launch(log, java(), List.of(), coreOnly, request(yaml));
        assertTrue(log.lines.stream().anyMatch(l -> l.startsWith("info Checked 0 cassettes in ")), log.lines::toString);
    }

    @Test
    void the_first_check_makes_a_class_archive_and_the_next_ones_map_it(@TempDir Path dir) throws Exception {
        Path yaml = passingProject(dir);
        List<String> cp = jars(dir);
        Path folder = dir.resolve("repository/" + ClassArchives.FOLDER);
        ClassArchive archive = ClassArchives.of(folder, java(), List.of(), cp);
        Lines first = new Lines();
        ForkLauncher.launch(first, java(), List.of(), cp, request(yaml), archive);
        assertTrue(Files.isRegularFile(archive.file()), first.lines::toString);
        assertEquals(1, commands(first).size());
        assertTrue(commands(first).get(0).contains(" -XX:ArchiveClassesAtExit=" + folder.resolve(".")
                .normalize()), first.lines::toString);
        try (var listing = Files.list(folder)) {
            assertEquals(List.of(archive.file()), listing.toList(), "the temporary file was renamed");
        }

        // The same java, options and jars: the same archive, which the next JVM maps. Its classes come from it.
        Path classes = dir.resolve("classes.log");
        List<String> logging = List.of("-Xlog:class+load=info:file=" + classes);
        ClassArchive same = ClassArchives.of(folder, java(), logging, cp);
        ClassArchive mapped = ClassArchives.of(folder, java(), List.of(), cp);
        assertEquals(archive.file(), mapped.file());
        assertTrue(!same.file().equals(archive.file()), "other options, another archive");
        Lines second = new Lines();
        ForkLauncher.launch(second, java(), List.of(), cp, request(yaml), mapped);
        assertEquals(1, commands(second).size());
        assertTrue(commands(second).get(0).contains(" -XX:SharedArchiveFile=" + archive.file() + " "),
                second.lines::toString);
        assertEquals(List.of(), sharingNews(second));
        // Its classes come from it: a check with class loading logged, against its own archive made just before.
        ForkLauncher.launch(new Lines(), java(), logging, cp, request(yaml), same);
        Files.deleteIfExists(classes);
        ForkLauncher.launch(new Lines(), java(), logging, cp, request(yaml), same);
        assertTrue(Files.readAllLines(classes).stream().anyMatch(l -> l.contains(" " + ForkedCheck.class.getName()
                + " source: shared objects file (top)")), "ForkedCheck comes from the archive");
    }

    @Test
    void a_damaged_class_archive_is_deleted_and_the_check_runs_without_it(@TempDir Path dir) throws Exception {
        Path yaml = passingProject(dir);
        List<String> cp = jars(dir);
        Path folder = dir.resolve(ClassArchives.FOLDER);
        ClassArchive archive = ClassArchives.of(folder, java(), List.of(), cp);
        ForkLauncher.launch(new Lines(), java(), List.of(), cp, request(yaml), archive);
        byte[] whole = Files.readAllBytes(archive.file());
        // Cut short, as a copy interrupted half-way would leave it: HotSpot crashes mapping such a file.
        Files.delete(archive.file());
        Files.write(archive.file(), java.util.Arrays.copyOf(whole, whole.length / 10));

        Lines log = new Lines();
        ForkLauncher.launch(log, java(), List.of(), cp, request(yaml), archive);
        assertEquals(2, commands(log).size(), log.lines::toString);
        assertTrue(commands(log).get(0).contains("-XX:SharedArchiveFile="), log.lines::toString);
        assertTrue(!commands(log).get(1).contains("Archive"), "the second JVM starts without it: " + log.lines);
        assertTrue(!Files.exists(archive.file()), "the damaged archive is gone");
        // The crash is told in the debug log only, and leaves no report behind.
        assertEquals(List.of(), sharingNews(log));
        assertTrue(log.lines.stream().anyMatch(l -> l.startsWith("debug The JVM with the class archive said: ")
                && l.contains("SIGBUS")), log.lines::toString);
        try (var listing = Files.list(folder)) {
            assertEquals(List.of(), listing.toList());
        }
        // The next check makes it again.
        ForkLauncher.launch(new Lines(), java(), List.of(), cp, request(yaml), archive);
        assertTrue(Files.isRegularFile(archive.file()));
    }

    @Test
    void a_jvm_that_cannot_make_a_class_archive_checks_without_one_from_then_on(@TempDir Path dir) throws Exception {
        Path yaml = passingProject(dir);
        List<String> cp = jars(dir);
        Path folder = dir.resolve(ClassArchives.FOLDER);
        // Without compressed class pointers HotSpot maps no base archive, and so cannot make one on top of it.
        List<String> options = List.of("-XX:-UseCompressedClassPointers");
        ClassArchive archive = ClassArchives.of(folder, java(), options, cp);
        Lines log = new Lines();
        ForkLauncher.launch(log, java(), options, cp, request(yaml), archive);
        assertEquals(2, commands(log).size(), log.lines::toString);
        assertEquals(List.of(), sharingNews(log));
        assertTrue(log.lines.contains("debug The JVM with the class archive said: DynamicDumpSharedSpaces is"
                + " unsupported when base CDS archive is not loaded"), log.lines::toString);
        assertTrue(!Files.exists(archive.file()));

        Lines again = new Lines();
        ForkLauncher.launch(again, java(), options, cp, request(yaml), archive);
        assertEquals(1, commands(again).size(), again.lines::toString);
        assertTrue(!commands(again).get(0).contains("Archive"), again.lines::toString);
    }

    @Test
    void options_that_choose_their_own_class_sharing_get_no_archive(@TempDir Path dir) throws IOException {
        List<String> cp = jars(dir);
        for (String option : List.of("-Xshare:off", "-XX:SharedArchiveFile=a.jsa", "-XX:ArchiveClassesAtExit=b.jsa",
                "-XX:-UseSharedSpaces")) {
            assertEquals(null, ClassArchives.of(dir, java(), List.of("-Xmx1g", option), cp), option);
        }
        assertTrue(ClassArchives.of(dir, java(), List.of("-Xmx1g"), cp) != null);
        assertEquals(null, ClassArchives.of(dir, java(), List.of(), List.of(dir.resolve("gone.jar").toString())),
                "a jar that is not there");
        assertEquals(null, ClassArchives.of(dir, java(), List.of(), classpath()), "folders of classes");
        assertEquals(null, ClassArchives.of(dir.resolve("a" + File.pathSeparator + "b"), java(), List.of(), cp),
                "a folder HotSpot would read as two");
    }

    @Test
    void a_bad_option_fails_once_with_the_class_archive_out_of_the_message(@TempDir Path dir) throws Exception {
        Path yaml = passingProject(dir);
        List<String> cp = jars(dir);
        List<String> options = List.of("-XX:+NoSuchOptionAnywhere");
        ClassArchive archive = ClassArchives.of(dir.resolve(ClassArchives.FOLDER), java(), options, cp);
        Lines log = new Lines();
        MojoExecutionException e = assertThrows(MojoExecutionException.class,
                () -> ForkLauncher.launch(log, java(), options, cp, request(yaml), archive));
        assertTrue(e.getMessage().startsWith("resilience:check: its JVM (" + java() + " -XX:+NoSuchOptionAnywhere "
                + ForkedCheck.class.getName() + ") ended with exit code 1 before it gave a verdict"), e.getMessage());
        // What the JVM printed is logged once, from the JVM started without the archive.
        assertEquals(1, log.lines.stream().filter(l -> l.startsWith("info ") && l.contains("NoSuchOptionAnywhere"))
                .count(), log.lines::toString);
        assertTrue(!Files.exists(dir.resolve(ClassArchives.FOLDER).resolve(archive.file().getFileName()
                .toString().replace(".jsa", ".unusable"))), "a bad option says nothing of archives");
    }

    /**
     * On a kernel that offers transparent huge pages to a process that asks (as most Linux CI runners do), the check's
     * JVM runs with them and passes; elsewhere its options are left as they were.
     */
    @Test
    void a_check_on_huge_pages_where_the_kernel_offers_them_passes(@TempDir Path dir) throws Exception {
        Path yaml = passingProject(dir);
        Path gc = dir.resolve("gc.log");
        List<String> own = List.of("-Xlog:gc+init=info:file=" + gc);
        List<String> options = HugePages.added(own);
        Path setting = Path.of(HugePages.SETTING);
        boolean offered = System.getProperty("os.name").equals("Linux") && Files.isReadable(setting)
                && !Files.readString(setting).contains("[never]");
        assertEquals(offered, options.contains(HugePages.OPTION), options::toString);
        Lines log = new Lines();
        ForkLauncher.launch(log, java(), options, classpath(), request(yaml));
        assertTrue(log.lines.stream().anyMatch(l -> l.startsWith("info Checked 0 cassettes in ")), log.lines::toString);
        assertEquals(offered ? "Large Page Support: Enabled (Transparent)" : "Large Page Support: Disabled",
                Files.readAllLines(gc).stream().filter(l -> l.contains("Large Page Support"))
                        .map(l -> l.substring(l.indexOf("Large Page"))).findFirst().orElse(null));
    }

    private static ForkRequest request(Path yaml) {
        CheckRun.Options options = new CheckRun.Options(yaml, yaml.resolveSibling("record.json"), false, true, false,
                null, null, null, null);
        return new ForkRequest(options, null, null, 2, List.of(), Map.of(), false);
    }

    private static Path java() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    /** The tests' own classpath: the plugin's classes and everything they need. */
    private static List<String> classpath() {
        return Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
    }

    /** A log that keeps its lines as {@code "level text"}. */
    private static final class Lines extends LineLog {

        final List<String> lines = new ArrayList<>();

        @Override
        synchronized void line(String level, String text) {
            lines.add(level + " " + text);
        }

        @Override
        public boolean isDebugEnabled() {
            return true;
        }
    }
}
