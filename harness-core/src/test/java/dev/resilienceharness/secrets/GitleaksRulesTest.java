package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

class GitleaksRulesTest {

    /** An internal token format no built-in rule knows. */
    private static final String LIVE = "acme_live_q8zr2lm5np0xv7tb4kc1wd9y";
    private static final String TEST = "acme_test_h3gj6f01x8w2e5r7t9y4u6i0";
    private static final String OPENAI = "sk-proj-FAKEabcdefghijklmnop0123456789";
    private static final Path CASSETTE = Path.of("cassettes/0123456789abcdef.json");

    private static final String RULE = """
            [[rules]]
            id = "acme-internal-token"
            description = "ACME internal API token"
            regex = '''acme_(?:live|test)_([a-z0-9]{24})'''
            keywords = ["acme_"]
            """;

    @TempDir
    Path dir;

    private Path file(String toml) throws IOException {
        Path file = dir.resolve(".gitleaks.toml");
        Files.writeString(file, toml);
        return file;
    }

    private GitleaksRules rules(String toml) throws IOException {
        return GitleaksRules.read(file(toml));
    }

    /** Each finding of a cassette holding {@code text} in a message, as {@code rule masked}. */
    private static List<String> scan(GitleaksRules rules, Path cassette, String text) throws MalformedJsonException {
        String json = "{\"messages\": [{\"role\": \"user\", \"content\": \"" + text + "\"}], \"model\": \"m\"}";
        List<String> out = new ArrayList<>();
        for (Finding f : new SecretScanner(Allowlist.NONE, rules).scan(cassette,
                json.getBytes(StandardCharsets.UTF_8))) {
            out.add(f.ruleId() + " " + f.masked());
            assertFalse(f.toString().contains(LIVE.substring(10)), f.toString());
        }
        return out;
    }

    @Test
    void aCustomRuleFindsItsPlantedTokenAndNothingElse() throws Exception {
        GitleaksRules rules = rules(RULE);
        assertEquals(List.of("acme-internal-token"), rules.ids());
        assertFalse(rules.useDefault(), "without [extend] useDefault the file's rules replace the defaults");
        assertEquals(List.of("acme-internal-token q8zr****"),
                scan(rules, CASSETTE, "deploy with " + LIVE + " and " + OPENAI + " today"));
        assertEquals(List.of(), scan(rules, CASSETTE, "acme_live_ is a prefix, acme_live_short is no token"));
    }

    @Test
    void extendUseDefaultKeepsTheBuiltInRules() throws Exception {
        GitleaksRules rules = rules("[extend]\nuseDefault = true\n" + RULE);
        assertTrue(rules.useDefault());
        assertEquals(List.of("acme-internal-token q8zr****", "openai-key sk-p****"),
                scan(rules, CASSETTE, "deploy with " + LIVE + " and " + OPENAI + " today"));
    }

    @Test
    void aFindingOfATeamRuleCarriesItsIdInFingerprintAndSarif() throws Exception {
        String json = "{\"note\": \"" + LIVE + "\"}";
        Finding f = new SecretScanner(Allowlist.NONE, rules(RULE)).scan(CASSETTE,
                json.getBytes(StandardCharsets.UTF_8)).get(0);
        assertEquals(null, f.rule());
        assertEquals("acme-internal-token", f.ruleId());
        assertEquals(Finding.fingerprint("acme-internal-token", "q8zr2lm5np0xv7tb4kc1wd9y"), f.fingerprint());
        String sarif = new SarifWriter(Path.of("")).render(List.of(f));
        assertTrue(sarif.contains("\"ruleId\" : \"acme-internal-token\""), sarif);
        assertTrue(sarif.contains("\"ruleIndex\" : " + Rule.values().length), sarif);
        assertTrue(sarif.contains("\"id\" : \"acme-internal-token\""), sarif);
        assertFalse(sarif.contains("q8zr2lm5"), sarif);
    }

    @Test
    void anAllowlistSilencesOneFinding() throws Exception {
        GitleaksRules perRule = rules(RULE + """
                [[rules.allowlists]]
                regexTarget = "match"
                regexes = ['''^acme_test_''']
                """);
        assertEquals(List.of("acme-internal-token q8zr****"), scan(perRule, CASSETTE, LIVE + " " + TEST));
        GitleaksRules stopword = rules(RULE + """
                [rules.allowlist]
                stopwords = ["h3gj6f"]
                """);
        assertEquals(List.of("acme-internal-token q8zr****"), scan(stopword, CASSETTE, LIVE + " " + TEST));
        GitleaksRules global = rules("""
                [allowlist]
                description = "recorded against the sandbox"
                paths = ['''cassettes/sandbox/''']
                """ + RULE);
        assertEquals(List.of("acme-internal-token q8zr****"), scan(global, CASSETTE, LIVE));
        assertEquals(List.of(), scan(global, Path.of("cassettes/sandbox/0123456789abcdef.json"), LIVE));
    }

    @Test
    void allAllowlistConditionsMustHoldUnderAnd() throws Exception {
        GitleaksRules and = rules(RULE + """
                [[rules.allowlists]]
                condition = "AND"
                stopwords = ["q8zr"]
                paths = ['''sandbox''']
                """);
        assertEquals(List.of("acme-internal-token q8zr****"), scan(and, CASSETTE, LIVE));
        assertEquals(List.of(), scan(and, Path.of("sandbox/a.json"), LIVE));
    }

    @Test
    void secretGroupEntropyKeywordsAndPathAreHonoured() throws Exception {
        GitleaksRules rules = rules("""
                [[rules]]
                id = "ticket-secret"
                regex = '''(ticket)=([A-Za-z0-9]{16,})'''
                secretGroup = 2
                entropy = 3.5
                keywords = ["TICKET="]
                path = '''^cassettes/prod/'''
                """);
        Path prod = Path.of("cassettes/prod/0123456789abcdef.json");
        assertEquals(List.of("ticket-secret Q8zR****"), scan(rules, prod, "ticket=Q8zR2Lm5Np0Xv7Tb"));
        assertEquals(List.of(), scan(rules, prod, "ticket=aaaaaaaaaaaaaaaaaaaa"), "below the rule's entropy");
        assertEquals(List.of(), scan(rules, CASSETTE, "ticket=Q8zR2Lm5Np0Xv7Tb"), "outside the rule's path");
    }

    @Test
    void aRuleTheLinearTimeEngineCannotRunNamesFileRuleAndConstruct() throws Exception {
        Path file = file("""
                [[rules]]
                id = "lookahead"
                regex = '''token(?=[0-9]{8})'''
                """);
        IOException e = assertThrows(IOException.class, () -> GitleaksRules.read(file));
        assertTrue(e.getMessage().startsWith(file + ": rule 'lookahead' regex uses '(?="), e.getMessage());
        assertTrue(e.getMessage().contains("RE2/J"), e.getMessage());
        assertTrue(e.getMessage().contains("rewrite it without that construct"), e.getMessage());
    }

    @Test
    void aFileThatIsNotUsableSaysWhereAndWhatToDo() throws Exception {
        Path broken = file("[[rules]]\nid = \"x\"\nregex = '''unterminated\n");
        IOException e = assertThrows(IOException.class, () -> GitleaksRules.read(broken));
        assertTrue(e.getMessage().startsWith(broken + ":"), e.getMessage());
        assertTrue(e.getMessage().contains("not valid TOML"), e.getMessage());
        assertEquals(broken + ": rules[0] has no id; give every rule an id (findings carry it)",
                assertThrows(IOException.class, () -> rules("[[rules]]\nregex = 'x'\n")).getMessage());
        assertEquals(file("") + ": [extend] path and url are not supported; copy the rules you extend into this"
                + " file, or keep useDefault = true to add yours to the built-in rules",
                assertThrows(IOException.class, () -> rules("[extend]\npath = 'base.toml'\n")).getMessage());
        Path folder = Files.createDirectory(dir.resolve("rules.toml"));
        assertTrue(assertThrows(IOException.class, () -> GitleaksRules.read(folder)).getMessage()
                .endsWith("is a folder, not a file"));
    }

    @Test
    void aRuleThatOnlyNamesPathsFindsNothingInACassette() throws Exception {
        GitleaksRules rules = rules("[[rules]]\nid = \"pem-files\"\npath = '''\\.pem$'''\n");
        assertTrue(rules.isEmpty());
        assertEquals(List.of(), scan(rules, Path.of("a.pem"), LIVE));
    }

    @Test
    void hostilePatternsRunInLinearTime() throws Exception {
        GitleaksRules rules = rules("[[rules]]\nid = \"nested\"\nregex = '''(a+)+b'''\n");
        String text = "a".repeat(200_000);
        // a backtracking engine needs 2^200000 steps here; RE2/J reads the text a few times
        assertEquals(List.of(), rules.find(CASSETTE, text));
    }
}
