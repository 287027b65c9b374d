package dev.resilienceharness.clients.anthropic;

import tools.jackson.databind.JsonNode;

/**
 * The team's check of a {@code write_file} call against the tool's {@code input_schema}: an object with the required
 * {@code path} and {@code content}, both strings.
 */
final class WriteFileInput {

    private WriteFileInput() {
    }

    static boolean valid(JsonNode input) {
        return input != null && input.isObject() && input.path("path").isString()
                && input.path("content").isString();
    }
}
