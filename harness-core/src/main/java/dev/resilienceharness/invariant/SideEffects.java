package dev.resilienceharness.invariant;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.tool.ToolDeclaration;
import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.trace.ToolRecord;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * Invariant {@code side_effects} (docs invariants/side-effects.md): a tool declared {@code side_effects: true} takes
 * effect at most once per logical call, that is, per op, tool and arguments, however many layers retried it: the
 * team's loop, its framework, an SDK, a repair or a restart. An execution that carries the idempotency key of an
 * earlier one, which the declaration says the tool honours, is no repeat. An execution that never got to run (an
 * {@code error} or {@code timeout} fault) took no effect.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class SideEffects implements ScenarioInvariant {

    private final Map<String, ToolDeclaration> tools;

    public SideEffects(Map<String, ToolDeclaration> tools) {
        this.tools = tools;
    }

    @Override
    public Invariant invariant() {
        return Invariant.SIDE_EFFECTS;
    }

    @Override
    public List<Violation> check(RunTrace trace) {
        List<Violation> out = new ArrayList<>();
        Map<String, List<ToolRecord>> logical = new LinkedHashMap<>();
        for (ToolRecord r : trace.tools()) {
            ToolDeclaration d = tools.get(r.name());
            if (d != null && d.sideEffects() && r.committed()) {
                logical.computeIfAbsent(r.op() + "\u0000" + r.fingerprint(), k -> new ArrayList<>()).add(r);
            }
        }
        for (List<ToolRecord> effects : logical.values()) {
            List<ToolRecord> counted = new ArrayList<>();
            Set<String> keys = new HashSet<>();
            for (ToolRecord r : effects) {
                // A key seen before, which the tool honours, makes this execution no new effect.
                if (r.idempotencyKey() == null || keys.add(r.idempotencyKey())) {
                    counted.add(r);
                }
            }
            if (counted.size() > 1) {
                out.add(violation(trace, counted));
            }
        }
        return out;
    }

    private static Violation violation(RunTrace trace, List<ToolRecord> counted) {
        ToolRecord first = counted.get(0);
        ToolRecord repeat = counted.get(1);
        String layer;
        String hint;
        if (repeat.incarnation() != first.incarnation()) {
            layer = ToolMessages.restart(repeat);
            hint = ToolMessages.HINT_RESTART;
        } else if (repeat.afterCall() == first.afterCall()) {
            layer = ToolMessages.retried(first, repeat);
            hint = ToolMessages.retryHint(first);
        } else {
            layer = ToolMessages.askedAgain(repeat);
            hint = ToolMessages.HINT_ASKED_AGAIN;
        }
        return new Violation(Invariant.SIDE_EFFECTS, trace.scenario().name(), first.op(), ToolMessages.executions(1),
                ToolMessages.executions(counted.size()), ToolMessages.repeated(first, repeat, counted.size(), layer),
                hint.replace("<name>", first.name()));
    }
}
