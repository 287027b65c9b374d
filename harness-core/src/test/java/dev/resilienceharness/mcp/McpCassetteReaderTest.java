package dev.resilienceharness.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.resilienceharness.cassette.CassetteException;
import dev.resilienceharness.cassette.CassetteMessages;
import dev.resilienceharness.cassette.CassetteReader;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class McpCassetteReaderTest {

    private static final String HINT = ". " + CassetteMessages.HINT_FIX;

    @TempDir
    Path cassettes;

    private Path file;

    private CassetteException refused(String text) throws Exception {
        file = McpCassetteFiles.sessionFile(cassettes, "billing", "s1");
        Files.createDirectories(file.getParent());
        Files.writeString(file, text.replace('\'', '"'), StandardCharsets.UTF_8);
        return assertThrows(CassetteException.class, () -> new McpCassetteReader(cassettes).read(file));
    }

    /** The message of the refusal of {@code text}, the file's name written FILE. */
    private String message(String text) throws Exception {
        return refused(text).getMessage().replace(file.toString(), "FILE");
    }

    private static String session(String exchanges) {
        return "{'version': 1, 'server': 'billing', 'transport': 'stdio', 'exchanges': [" + exchanges + "]}";
    }

    private static final String LIST = "{'request': {'method': 'tools/list'}, 'response': {'offset_ms': 1,"
            + " 'result': {'tools': []}}}";

    @Test
    void aWellFormedFileIsRead() throws Exception {
        file = McpCassetteFiles.sessionFile(cassettes, "billing", "s1");
        Files.createDirectories(file.getParent());
        Files.writeString(file, session(LIST).replace('\'', '"'));

        McpSession session = new McpCassetteReader(cassettes).read(file);

        assertEquals(1, session.exchanges().size());
        assertEquals("tools/list", session.exchanges().get(0).method());
    }

    @Test
    void aFileThatDoesNotParseNamesItsLineAndColumn() throws Exception {
        CassetteException e = refused("{\n  'version': 1,\n  'server': }");
        assertEquals(file + ":3:13", e.location());
        assertEquals(CassetteMessages.HINT_FIX, e.hint());
    }

    @Test
    void aTruncatedFileSaysSo() throws Exception {
        CassetteException e = refused("{'version': 1, 'server'");
        assertEquals(true, e.problem().endsWith("the file ends before the JSON is complete (is it truncated?)"),
                e.problem());
        assertEquals(CassetteMessages.HINT_FIX, e.hint());
    }

    @Test
    void anEmptyFileIsRefused() throws Exception {
        CassetteException e = refused("  ");
        assertEquals(file.toString(), e.location());
    }

    @Test
    void aFileThatIsNotAnObject() throws Exception {
        assertEquals("FILE: is a JSON array, not an object; " + McpMessages.SHAPE + HINT,
                message("[]"));
    }

    @Test
    void eachMissingKeyIsNamedWithItsPath() throws Exception {
        assertEquals("FILE: at $: \"exchanges\" is missing" + HINT,
                message("{'version': 1, 'server': 'billing', 'transport': 'stdio'}"));
        assertEquals("FILE: at $: \"version\" is missing" + HINT,
                message("{'server': 'billing', 'transport': 'stdio', 'exchanges': []}"));
        assertEquals("FILE: at exchanges[0].response: \"offset_ms\" is missing" + HINT,
                message(session("{'request': {'method': 'tools/list'}, 'response': {'result': {}}}")));
        assertEquals("FILE: at exchanges[0].request: \"method\" is missing" + HINT,
                message(session("{'request': {}, 'response': {'offset_ms': 1, 'result': {}}}")));
        assertEquals("FILE: at exchanges[0]: \"from\" is missing" + HINT,
                message(session("{'notification': {'method': 'notifications/initialized'}}")));
    }

    @Test
    void eachWrongTypeIsNamedWithItsPath() throws Exception {
        assertEquals("FILE: at transport: expected a string, found a JSON number" + HINT,
                message("{'version': 1, 'server': 'billing', 'transport': 3, 'exchanges': []}"));
        assertEquals("FILE: at exchanges: expected an array, found a JSON object" + HINT,
                message("{'version': 1, 'server': 'billing', 'transport': 'stdio', 'exchanges': {}}"));
        assertEquals("FILE: at exchanges[1]: expected an object, found a JSON string" + HINT,
                message(session(LIST + ", 'x'")));
        assertEquals("FILE: at exchanges[0].request.method: expected a string, found a JSON array" + HINT,
                message(session("{'request': {'method': []}, 'response': {'offset_ms': 1, 'result': {}}}")));
        assertEquals("FILE: at exchanges[0].response.offset_ms: expected a whole number of milliseconds, 0 or"
                        + " more, found -4" + HINT,
                message(session("{'request': {'method': 'ping'}, 'response': {'offset_ms': -4, 'result': {}}}")));
        assertEquals("FILE: at exchanges[0].response.offset_ms: expected a whole number of milliseconds, 0 or"
                        + " more, found a JSON string" + HINT,
                message(session("{'request': {'method': 'ping'}, 'response': {'offset_ms': '4', 'result': {}}}")));
        assertEquals("FILE: at exchanges[0].response.error.code: expected an integer, found a JSON number 1.5"
                        + HINT,
                message(session("{'request': {'method': 'ping'}, 'response': {'offset_ms': 1, 'error':"
                        + " {'code': 1.5, 'message': 'm'}}}")));
    }

    @Test
    void wrongValuesAreNamedWithWhatToUse() throws Exception {
        assertEquals("FILE: at transport: 'sse' is not a transport: use stdio or streamable-http" + HINT,
                message("{'version': 1, 'server': 'billing', 'transport': 'sse', 'exchanges': []}"));
        assertEquals("FILE: at version: version 2 is not one this harness reads (it reads 1); re-record with mvn"
                        + " resilience:record" + HINT,
                message("{'version': 2, 'server': 'billing', 'transport': 'stdio', 'exchanges': []}"));
        assertEquals("FILE: at exchanges[0].from: 'proxy' is not a sender: use client or server" + HINT,
                message(session("{'notification': {'method': 'x'}, 'from': 'proxy'}")));
        assertEquals("FILE: at server: '../x' cannot name an MCP server: use letters, digits, '.', '_' and '-',"
                        + " not first a dot" + HINT,
                message("{'version': 1, 'server': '../x', 'transport': 'stdio', 'exchanges': []}"));
        assertEquals("FILE: at exchanges[0].extra: \"extra\" is not a key of an MCP session file" + HINT,
                message(session("{'request': {'method': 'ping'}, 'response': {'offset_ms': 1, 'result': {}},"
                        + " 'extra': 1}")));
    }

    @Test
    void anAnswerIsExactlyOneOfResultAndError() throws Exception {
        assertEquals("FILE: at exchanges[0].response: " + McpMessages.RESULT_AND_ERROR + HINT,
                message(session("{'request': {'method': 'ping'}, 'response': {'offset_ms': 1, 'result': {},"
                        + " 'error': {'code': 1, 'message': 'm'}}}")));
        assertEquals("FILE: at exchanges[0].response: " + McpMessages.NEITHER + HINT,
                message(session("{'request': {'method': 'ping'}, 'response': {'offset_ms': 1}}")));
        assertEquals("FILE: at exchanges[0]: " + McpMessages.REQUEST_OR_NOTIFICATION + HINT,
                message(session("{'response': {'offset_ms': 1, 'result': {}}}")));
    }

    @Test
    void notificationsOutOfOrderOrAfterTheAnswerAreRefused() throws Exception {
        assertEquals("FILE: at exchanges[0].notifications[1].offset_ms: offset 5 ms comes before the one at 9 ms;"
                        + " notifications are in the order sent" + HINT,
                message(session("{'request': {'method': 'tools/call'}, 'notifications': [{'offset_ms': 9,"
                        + " 'method': 'notifications/progress'}, {'offset_ms': 5, 'method':"
                        + " 'notifications/progress'}], 'response': {'offset_ms': 20, 'result': {}}}")));
        assertEquals("FILE: at exchanges[0].response.offset_ms: the answer at 3 ms comes before a notification at"
                        + " 9 ms" + HINT,
                message(session("{'request': {'method': 'tools/call'}, 'notifications': [{'offset_ms': 9,"
                        + " 'method': 'notifications/progress'}], 'response': {'offset_ms': 3, 'result': {}}}")));
    }

    @Test
    void aRepeatedKeyIsRefused() throws Exception {
        CassetteException e = refused("{'version': 1, 'version': 1}");
        assertEquals(CassetteMessages.HINT_FIX, e.hint());
        assertEquals(1, e.line());
    }

    @Test
    void aSessionInAnotherServersFolderIsRefused() throws Exception {
        file = McpCassetteFiles.sessionFile(cassettes, "search", "s1");
        Files.createDirectories(file.getParent());
        Files.writeString(file, session(LIST).replace('\'', '"'));

        CassetteException e = assertThrows(CassetteException.class, () -> new McpCassetteReader(cassettes).read(file));

        assertEquals(file + ": at server: names server 'billing' but lies in the folder of server 'search'" + HINT,
                e.getMessage());
    }

    @Test
    void aFileOverTheBoundIsRefusedUnread() throws Exception {
        file = McpCassetteFiles.sessionFile(cassettes, "billing", "big");
        Files.createDirectories(file.getParent());
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(CassetteReader.MAX_BYTES + 1);
        }

        CassetteException e = assertThrows(CassetteException.class, () -> new McpCassetteReader(cassettes).read(file));

        assertEquals(file.toString(), e.location());
        assertEquals(CassetteMessages.HINT_REPLACE, e.hint());
        assertEquals(true, e.problem().contains(String.valueOf(CassetteReader.MAX_BYTES + 1)), e.problem());
    }

    @Test
    void aLinkOutOfTheCassetteFolderIsRefused(@TempDir Path elsewhere) throws Exception {
        Path outside = elsewhere.resolve("s.json");
        Files.writeString(outside, session(LIST).replace('\'', '"'));
        file = McpCassetteFiles.sessionFile(cassettes, "billing", "s1");
        Files.createDirectories(file.getParent());
        Files.createSymbolicLink(file, outside);

        CassetteException e = assertThrows(CassetteException.class, () -> new McpCassetteReader(cassettes).read(file));

        assertEquals(CassetteMessages.HINT_LINK, e.hint());
    }

    @Test
    void aServersSessionsAreReadInFileNameOrderAndTemporaryFilesSkipped() throws Exception {
        McpSession second = new McpSession("billing", McpTransportKind.STDIO, List.of(McpSessions.refund(1, "b", 2)));
        McpCassetteWriter.write(McpCassetteFiles.sessionFile(cassettes, "billing", "b"), second);
        McpCassetteWriter.write(McpCassetteFiles.sessionFile(cassettes, "billing", "a"), McpSessions.billing());
        Path folder = McpCassetteFiles.serverFolder(cassettes, "billing");
        Files.writeString(folder.resolve(".a.json.1f.tmp"), "{");
        Files.writeString(folder.resolve("notes.txt"), "not a session");

        List<McpSession> sessions = new McpCassetteReader(cassettes).readServer("billing");

        assertEquals(List.of(folder.resolve("a.json"), folder.resolve("b.json")),
                sessions.stream().map(McpSession::file).toList());
        assertEquals(List.of(), new McpCassetteReader(cassettes).readServer("search"));
    }

    @Test
    void paramsWithoutACanonicalFormAreRefused() throws Exception {
        assertEquals(true, message(session("{'request': {'method': 'tools/call', 'params': {'x': 1e999}},"
                + " 'response': {'offset_ms': 1, 'result': {}}}"))
                .startsWith("FILE: at exchanges[0].request.params: the params have no canonical JSON: "));
    }
}
