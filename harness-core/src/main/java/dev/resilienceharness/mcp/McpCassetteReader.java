package dev.resilienceharness.mcp;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.AtomicFiles;
import dev.resilienceharness.cassette.CassetteException;
import dev.resilienceharness.cassette.CassetteMessages;
import dev.resilienceharness.cassette.CassetteReader;
import dev.resilienceharness.json.VolatilePaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;

/**
 * Reads one MCP session file strictly, as model cassettes are read: at most {@link CassetteReader#MAX_BYTES}, strict
 * UTF-8 JSON without duplicate keys, not a link out of the cassette folder, and every key of the right type. Every
 * refusal is a {@link CassetteException} naming the file, the JSON path and what to do.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class McpCassetteReader {

    private static final Set<String> TOP = Set.of("version", "server", "transport", "exchanges");
    private static final Set<String> CALL = Set.of("request", "notifications", "response");
    private static final Set<String> NOTICE = Set.of("notification", "from", "offset_ms");
    private static final Set<String> MESSAGE = Set.of("method", "params");
    private static final Set<String> TIMED_MESSAGE = Set.of("offset_ms", "method", "params");
    private static final Set<String> RESPONSE = Set.of("offset_ms", "result", "error");
    private static final Set<String> ERROR = Set.of("code", "message", "data");

    private final Path cassettes;
    private final CassetteReader files;

    /** @param cassettes the cassette folder; session files must stay inside it */
    public McpCassetteReader(Path cassettes) {
        this.cassettes = cassettes;
        this.files = new CassetteReader(cassettes, VolatilePaths.of(List.of()));
    }

    /**
     * Every recorded session of {@code server}, in file name order: the {@code .json} files of its folder, none when
     * the folder does not exist. A temporary file left by a killed writer is not a session.
     */
    public List<McpSession> readServer(String server) throws CassetteException {
        Path folder = McpCassetteFiles.serverFolder(cassettes, server);
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        List<Path> names;
        try (Stream<Path> list = Files.list(folder)) {
            names = list.filter(f -> f.getFileName().toString().endsWith(McpCassetteFiles.SUFFIX)
                    && !AtomicFiles.isTemporary(f)).sorted().toList();
        } catch (IOException e) {
            throw new CassetteException(folder, McpMessages.unlistable(String.valueOf(e.getMessage())),
                    CassetteMessages.HINT_AGAIN);
        }
        List<McpSession> sessions = new ArrayList<>(names.size());
        for (Path file : names) {
            sessions.add(read(file));
        }
        return sessions;
    }

    /**
     * Reads {@code file}. When it lies in a server's folder ({@code mcp/<server>/}) the server it names must be that
     * one.
     */
    public McpSession read(Path file) throws CassetteException {
        return read(file, files.readBytes(file));
    }

    /** As {@link #read(Path)}, from the bytes already read of {@code file}. */
    public McpSession read(Path file, byte[] bytes) throws CassetteException {
        McpSession session = parse(file, bytes);
        Path parent = file.toAbsolutePath().getParent();
        Path grand = parent == null ? null : parent.getParent();
        if (grand != null && grand.getFileName() != null
                && McpCassetteFiles.FOLDER.equals(grand.getFileName().toString())
                && !parent.getFileName().toString().equals(session.server())) {
            throw fail(file, "server", McpMessages.serverMismatch(session.server(), parent.getFileName().toString()));
        }
        return session;
    }

    /** Parses the bytes of a session file read from {@code file}. */
    public McpSession parse(Path file, byte[] bytes) throws CassetteException {
        JsonNode root = files.readTree(file, bytes);
        if (!root.isObject()) {
            throw new CassetteException(file, McpMessages.notAnObject(CassetteMessages.kind(root)),
                    CassetteMessages.HINT_FIX);
        }
        Fields top = Fields.of(file, "", root, TOP);
        JsonNode version = top.require("version");
        if (!version.isIntegralNumber() || !version.canConvertToLong() || version.asLong() != 1) {
            throw fail(file, "version", McpMessages.badVersion(CassetteMessages.abbreviate(version.toString())));
        }
        String server = top.string("server", true);
        if (!McpCassetteFiles.validName(server)) {
            throw fail(file, "server", McpMessages.badName("server", CassetteMessages.abbreviate(server)));
        }
        String transportKey = top.string("transport", true);
        McpTransportKind transport = McpTransportKind.fromKey(transportKey);
        if (transport == null) {
            throw fail(file, "transport", McpMessages.badTransport(transportKey));
        }
        JsonNode list = top.require("exchanges");
        if (!list.isArray()) {
            throw fail(file, "exchanges", McpMessages.wrongType("an array", CassetteMessages.kind(list)));
        }
        List<McpExchange> exchanges = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            exchanges.add(exchange(file, "exchanges[" + i + "]", list.get(i)));
        }
        return new McpSession(file, server, transport, exchanges);
    }

    private static McpExchange exchange(Path file, String path, JsonNode node) throws CassetteException {
        if (!node.isObject()) {
            throw fail(file, path, McpMessages.wrongType("an object", CassetteMessages.kind(node)));
        }
        if (node.has("request") == node.has("notification")) {
            throw fail(file, path, McpMessages.REQUEST_OR_NOTIFICATION);
        }
        if (node.has("notification")) {
            Fields f = Fields.of(file, path, node, NOTICE);
            Fields message = f.object("notification", MESSAGE);
            String fromKey = f.string("from", true);
            McpExchange.Sender from = McpExchange.Sender.fromKey(fromKey);
            if (from == null) {
                throw fail(file, path + ".from", McpMessages.badSender(fromKey));
            }
            return new McpExchange.Notice(from, f.offset("offset_ms", false), message.string("method", true),
                    message.optional("params"));
        }
        Fields f = Fields.of(file, path, node, CALL);
        Fields request = f.object("request", MESSAGE);
        String method = request.string("method", true);
        JsonNode params = request.optional("params");
        try {
            McpRequestKey.of(method, params);
        } catch (IllegalArgumentException e) {
            throw fail(file, path + ".request.params", McpMessages.noCanonicalForm(String.valueOf(e.getMessage())));
        }
        List<McpNotification> notifications = new ArrayList<>();
        JsonNode list = f.optional("notifications");
        long before = 0;
        if (list != null) {
            if (!list.isArray()) {
                throw fail(file, path + ".notifications", McpMessages.wrongType("an array",
                        CassetteMessages.kind(list)));
            }
            for (int i = 0; i < list.size(); i++) {
                String at = path + ".notifications[" + i + "]";
                JsonNode item = list.get(i);
                if (!item.isObject()) {
                    throw fail(file, at, McpMessages.wrongType("an object", CassetteMessages.kind(item)));
                }
                Fields n = Fields.of(file, at, item, TIMED_MESSAGE);
                long ms = n.offset("offset_ms", true);
                if (ms < before) {
                    throw fail(file, at + ".offset_ms", McpMessages.outOfOrder(ms, before));
                }
                before = ms;
                notifications.add(new McpNotification(ms, n.string("method", true), n.optional("params")));
            }
        }
        Fields response = f.object("response", RESPONSE);
        long ms = response.offset("offset_ms", true);
        if (ms < before) {
            throw fail(file, path + ".response.offset_ms", McpMessages.answerBeforeNotification(ms, before));
        }
        JsonNode result = response.optional("result");
        JsonNode errorNode = response.optional("error");
        if (result != null && errorNode != null) {
            throw fail(file, path + ".response", McpMessages.RESULT_AND_ERROR);
        }
        if (result == null && errorNode == null) {
            throw fail(file, path + ".response", McpMessages.NEITHER);
        }
        if (result != null) {
            return new McpExchange.Call(method, params, notifications, ms, result, null);
        }
        Fields error = response.object("error", ERROR);
        JsonNode code = error.require("code");
        if (!code.isIntegralNumber() || !code.canConvertToLong()) {
            throw fail(file, path + ".response.error.code", McpMessages.wrongType("an integer",
                    code.isNumber() ? "number " + CassetteMessages.abbreviate(code.toString())
                            : CassetteMessages.kind(code)));
        }
        return new McpExchange.Call(method, params, notifications, ms, null,
                new McpError(code.asLong(), error.string("message", true), error.optional("data")));
    }

    private static CassetteException fail(Path file, String path, String problem) {
        return new CassetteException(file, McpMessages.at(path, problem), CassetteMessages.HINT_FIX);
    }

    /** The keys of one object of the file, each looked up with its path for the message. */
    private record Fields(Path file, String path, JsonNode node, Set<String> known) {

        static Fields of(Path file, String path, JsonNode node, Set<String> known) throws CassetteException {
            for (String key : node.propertyNames()) {
                if (!known.contains(key)) {
                    throw fail(file, child(path, key), McpMessages.unknownKey(key));
                }
            }
            return new Fields(file, path, node, known);
        }

        private static String child(String path, String key) {
            return path.isEmpty() ? key : path + "." + key;
        }

        JsonNode require(String key) throws CassetteException {
            JsonNode value = node.get(key);
            if (value == null) {
                throw fail(file, path.isEmpty() ? "$" : path, McpMessages.missing(key));
            }
            return value;
        }

        /** The value of {@code key}, {@code null} when absent or JSON null. */
        JsonNode optional(String key) {
            JsonNode value = node.get(key);
            return value == null || value.isNull() ? null : value;
        }

        String string(String key, boolean required) throws CassetteException {
            JsonNode value = required ? require(key) : optional(key);
            if (value == null) {
                return null;
            }
            if (!value.isString()) {
                throw fail(file, child(path, key), McpMessages.wrongType("a string", CassetteMessages.kind(value)));
            }
            return value.asString();
        }

        long offset(String key, boolean required) throws CassetteException {
            JsonNode value = required ? require(key) : optional(key);
            if (value == null) {
                return 0;
            }
            if (!value.isIntegralNumber() || !value.canConvertToLong() || value.asLong() < 0) {
                throw fail(file, child(path, key), McpMessages.badOffset(value.isNumber()
                        ? CassetteMessages.abbreviate(value.toString()) : "a JSON " + CassetteMessages.kind(value)));
            }
            return value.asLong();
        }

        Fields object(String key, Set<String> keys) throws CassetteException {
            JsonNode value = require(key);
            if (!value.isObject()) {
                throw fail(file, child(path, key), McpMessages.wrongType("an object", CassetteMessages.kind(value)));
            }
            return Fields.of(file, child(path, key), value, keys);
        }
    }
}
