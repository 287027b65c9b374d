package dev.resilienceharness.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.scenario.Rehearsal;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;
import java.io.StringReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class JUnitXmlReportTest {

    static final Set<Invariant> ALL = EnumSet.allOf(Invariant.class);

    static Document parse(String xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    /** Validates against the JUnit XML dialect CI servers read (test resource report/junit.xsd). */
    static void validate(String xml) throws Exception {
        SchemaFactory f = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
        f.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        f.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        var schema = f.newSchema(JUnitXmlReportTest.class.getResource("/report/junit.xsd"));
        schema.newValidator().validate(new StreamSource(new StringReader(xml)));
    }

    static List<Element> cases(Document doc) {
        NodeList nodes = doc.getElementsByTagName("testcase");
        List<Element> out = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            out.add((Element) nodes.item(i));
        }
        return out;
    }

    @Test
    void one_case_per_scenario_and_checked_invariant_plus_cassettes_and_secrets(@TempDir Path dir) throws Exception {
        List<ScenarioReport> scenarios = new ArrayList<>(ReportFixtures.corpus("mixed"));
        scenarios.addAll(ReportFixtures.failing(dir));
        RunReport report = RunReport.builder().scenarios(scenarios).cassettes(6, List.of(), List.of("orphan x"))
                .secrets(6, List.of(RunReportTest.FINDING)).build();
        // What a pass over a project without tools checks: side_effects is not among them.
        String xml = JUnitXmlReport.toXml(report, ReportWriter.checked(false));
        validate(xml);
        Document doc = parse(xml);
        Element suite = doc.getDocumentElement();
        assertEquals("testsuite", suite.getTagName());
        assertEquals("resilience", suite.getAttribute("name"));
        int expectedCases = scenarios.size() * 5 + 2;
        assertEquals(expectedCases, cases(doc).size());
        assertEquals(String.valueOf(expectedCases), suite.getAttribute("tests"));
        int failures = doc.getElementsByTagName("failure").getLength();
        assertEquals(String.valueOf(failures), suite.getAttribute("failures"));
        assertEquals("0", suite.getAttribute("errors"));
        assertEquals("0", suite.getAttribute("skipped"));
        // three failing scenarios, one invariant each but the storm's two (it retries at once: budget and
        // bounded_wait), and the secret finding
        assertEquals(5, failures);
        Element storm = cases(doc).stream().filter(c -> c.getAttribute("classname").equals("resilience.retry-storm")
                && c.getAttribute("name").equals("budget")).findFirst().orElseThrow();
        Element failure = (Element) storm.getElementsByTagName("failure").item(0);
        assertEquals("resilience.budget", failure.getAttribute("type"));
        assertTrue(failure.getAttribute("message").startsWith("retry-storm [budget] op 'plan': more calls than the policy allows"),
                failure.getAttribute("message"));
        assertEquals(failure.getAttribute("message"), failure.getTextContent());
        Element secrets = cases(doc).stream().filter(c -> c.getAttribute("classname").equals("resilience")
                && c.getAttribute("name").equals("secrets")).findFirst().orElseThrow();
        assertTrue(secrets.getTextContent().contains("cassettes/a.json:3:9 [openai-key] sk-p****"));
        Element cassettes = cases(doc).stream().filter(c -> c.getAttribute("name").equals("cassettes")).findFirst()
                .orElseThrow();
        assertEquals(0, cassettes.getElementsByTagName("failure").getLength());
        assertTrue(cassettes.getTextContent().contains("warning: orphan x"));
    }

    @Test
    void only_checked_invariants_get_cases_but_a_violation_always_does() throws Exception {
        Violation expect = new Violation(Invariant.EXPECTATIONS, "a", "plan", null, null, "expect differs", null);
        RunReport report = RunReport.builder().scenario(ReportFixtures.handmade("a", "plan", List.of(expect)))
                .scenario(ReportFixtures.handmade("b", "plan", List.of())).build();
        Document doc = parse(JUnitXmlReport.toXml(report, EnumSet.of(Invariant.BUDGET)));
        List<String> names = cases(doc).stream().map(c -> c.getAttribute("classname") + "#" + c.getAttribute("name"))
                .toList();
        assertEquals(List.of("resilience.a#budget", "resilience.a#expectations", "resilience.b#budget"), names);
    }

    @Test
    void several_violations_of_one_invariant_are_one_failure_listing_them_all() throws Exception {
        Violation v1 = ReportFixtures.budgetViolation("a", "plan");
        Violation v2 = ReportFixtures.budgetViolation("a", "patch");
        RunReport report = RunReport.builder().scenario(ReportFixtures.handmade("a", "plan", List.of(v1, v2))).build();
        Document doc = parse(JUnitXmlReport.toXml(report, Rehearsal.RUN_INVARIANTS));
        Element failure = (Element) doc.getElementsByTagName("failure").item(0);
        assertEquals(1, doc.getElementsByTagName("failure").getLength());
        assertTrue(failure.getAttribute("message").startsWith("2 violations of budget; first: a [budget] op 'plan'"));
        assertEquals(v1.line() + "\n" + v2.line(), failure.getTextContent());
    }

    @Test
    void hostile_text_and_forbidden_characters_still_parse() throws Exception {
        String name = "<script>alert(1)</script>&\"' \u0001\u001b\ud800\uffff tab\there \ud83d\ude00";
        Violation v = new Violation(Invariant.BUDGET, name, "op]]>", null, null, "line one\nline two\r\n& <b>",
                null);
        RunReport report = RunReport.builder().scenario(ReportFixtures.handmade(name, "plan", List.of(v))).build();
        String xml = JUnitXmlReport.toXml(report, Rehearsal.RUN_INVARIANTS);
        validate(xml);
        Document doc = parse(xml);
        String expectedName = "<script>alert(1)</script>&\"' \\u0001\\u001b\\ud800\\uffff tab\there \ud83d\ude00";
        Element first = cases(doc).get(0);
        assertEquals("resilience." + expectedName, first.getAttribute("classname"));
        Element failure = (Element) doc.getElementsByTagName("failure").item(0);
        assertTrue(failure.getAttribute("message").contains("line one\nline two\r\n& <b>"),
                "line breaks survive attribute normalisation: " + failure.getAttribute("message"));
        assertTrue(failure.getTextContent().contains("op 'op]]>'"));
    }

    @Test
    void escape_replaces_what_xml_cannot_hold() {
        StringBuilder out = new StringBuilder();
        JUnitXmlReport.escape("a<b>&\"\u0000\ufffe", true, out);
        assertEquals("a&lt;b&gt;&amp;&quot;\\u0000\\ufffe", out.toString());
    }

    @Test
    void side_effects_has_a_case_per_scenario_only_when_tools_are_checked(@TempDir Path dir) throws Exception {
        RunReport report = RunReport.builder().scenarios(ReportFixtures.tools(dir)).build();
        Document with = parse(JUnitXmlReport.toXml(report, ReportWriter.checked(true)));
        List<Element> sideEffects = cases(with).stream().filter(c -> c.getAttribute("name").equals("side_effects"))
                .toList();
        assertEquals(List.of("resilience.refund-twice", "resilience.refund-once"), sideEffects.stream()
                .map(c -> c.getAttribute("classname")).toList());
        assertEquals(1, sideEffects.get(0).getElementsByTagName("failure").getLength());
        assertTrue(((Element) sideEffects.get(0).getElementsByTagName("failure").item(0)).getAttribute("message")
                .startsWith("refund-twice [side_effects] op 'plan': "));
        assertEquals(0, sideEffects.get(1).getElementsByTagName("failure").getLength());
        RunReport plain = RunReport.builder().scenarios(ReportFixtures.corpus("plain")).build();
        assertTrue(cases(parse(JUnitXmlReport.toXml(plain, ReportWriter.checked(false)))).stream()
                .noneMatch(c -> c.getAttribute("name").equals("side_effects")));
    }
}
