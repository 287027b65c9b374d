package dev.resilienceharness.explore;

import dev.resilienceharness.tool.ToolFault;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Shrinks a plan's {@code tool_faults:} while its model-call faults stay as they are, as {@link Shrinker} does the
 * calls: drop a tool's whole list, replace a fault by {@code none}, move a fault one execution earlier over a
 * {@code none}, replace a fault by one earlier in the tool's vocabulary. Each accepted move lowers the number of
 * faults, their executions or their places in the vocabulary, so shrinking ends; trailing {@code none}s and empty
 * lists are dropped. The oracle is asked each candidate at most once.
 */
final class ToolFaultShrinker {

    private final Predicate<Map<String, List<ToolFault>>> fails;
    private final Map<String, List<ToolFault>> vocabulary;
    private final Map<Map<String, List<ToolFault>>, Boolean> asked = new HashMap<>();

    /**
     * @param fails      whether tool faults still break the invariant being shrunk for
     * @param vocabulary each tool's faults, simplest first
     */
    ToolFaultShrinker(Predicate<Map<String, List<ToolFault>>> fails, Map<String, List<ToolFault>> vocabulary) {
        this.fails = fails;
        this.vocabulary = vocabulary;
    }

    /** The minimal tool faults; {@code toolFaults} must fail. */
    Map<String, List<ToolFault>> shrink(Map<String, List<ToolFault>> toolFaults) {
        Map<String, List<ToolFault>> current = trimmed(toolFaults);
        while (true) {
            Map<String, List<ToolFault>> next = simpler(current);
            if (next == null) {
                return current;
            }
            current = next;
        }
    }

    private Map<String, List<ToolFault>> simpler(Map<String, List<ToolFault>> current) {
        for (String tool : current.keySet()) {
            Map<String, List<ToolFault>> candidate = new LinkedHashMap<>(current);
            candidate.remove(tool);
            if (accept(candidate)) {
                return candidate;
            }
        }
        for (Map.Entry<String, List<ToolFault>> e : current.entrySet()) {
            List<ToolFault> list = e.getValue();
            List<ToolFault> known = vocabulary.getOrDefault(e.getKey(), List.of());
            for (int i = 0; i < list.size(); i++) {
                ToolFault f = list.get(i);
                if (f.equals(ToolFault.NONE)) {
                    continue;
                }
                List<List<ToolFault>> moves = new ArrayList<>();
                moves.add(with(list, i, ToolFault.NONE));
                if (i > 0 && list.get(i - 1).equals(ToolFault.NONE)) {
                    moves.add(with(with(list, i - 1, f), i, ToolFault.NONE));
                }
                int at = known.indexOf(f);
                for (int k = 0; k < at; k++) {
                    moves.add(with(list, i, known.get(k)));
                }
                for (List<ToolFault> move : moves) {
                    Map<String, List<ToolFault>> candidate = new LinkedHashMap<>(current);
                    candidate.put(e.getKey(), move);
                    candidate = trimmed(candidate);
                    if (accept(candidate)) {
                        return candidate;
                    }
                }
            }
        }
        return null;
    }

    private boolean accept(Map<String, List<ToolFault>> candidate) {
        return asked.computeIfAbsent(Map.copyOf(candidate), fails::test);
    }

    private static List<ToolFault> with(List<ToolFault> list, int i, ToolFault f) {
        List<ToolFault> out = new ArrayList<>(list);
        out.set(i, f);
        return out;
    }

    /** Without trailing {@code none}s and without empty lists: neither changes a run. */
    static Map<String, List<ToolFault>> trimmed(Map<String, List<ToolFault>> toolFaults) {
        Map<String, List<ToolFault>> out = new LinkedHashMap<>();
        toolFaults.forEach((tool, list) -> {
            List<ToolFault> l = new ArrayList<>(list);
            while (!l.isEmpty() && l.get(l.size() - 1).equals(ToolFault.NONE)) {
                l.remove(l.size() - 1);
            }
            if (!l.isEmpty()) {
                out.put(tool, List.copyOf(l));
            }
        });
        return out;
    }
}
