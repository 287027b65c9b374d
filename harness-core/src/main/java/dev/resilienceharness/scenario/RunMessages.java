package dev.resilienceharness.scenario;

import java.util.Set;

/** The sentences a scenario run ends with when a call is for no op of the scenario. */
final class RunMessages {

    private RunMessages() {
    }

    static String unattributed(String path, String fingerprint, Set<String> ops) {
        return "a request to " + path + " (fingerprint " + fingerprint + ") was made outside every op scope and"
                + " matches no op of the scenario (" + String.join(", ", ops) + "). Make each op's SDK calls inside"
                + " try (var scope = run.op(\"<op>\")) { ... } so that they are attributed to it";
    }

    static String notListed(String op, Set<String> ops) {
        return "the loop called op '" + op + "', which the scenario does not list (its ops: " + String.join(", ", ops)
                + ") and for which no cassette was recorded. Call only the scenario's ops, or add '" + op
                + "' to its ops and record it";
    }
}
