package dev.resilienceharness.invariant;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.Budget;
import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.trace.ToolRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * The tool part of the budget invariant (docs invariants/budget.md): {@code budget.max_tool_calls_per_op} bounds the
 * tool executions of one op, and {@code budget.max_identical_tool_calls} catches a looping agent, one that runs the
 * same tool with the same arguments again and again in one op.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ToolBudget implements ScenarioInvariant {

    private final Budget budget;

    public ToolBudget(Budget budget) {
        this.budget = budget;
    }

    @Override
    public Invariant invariant() {
        return Invariant.BUDGET;
    }

    @Override
    public List<Violation> check(RunTrace trace) {
        List<Violation> out = new ArrayList<>();
        if (trace.tools().isEmpty()) {
            return out;
        }
        String name = trace.scenario().name();
        Map<String, Integer> perOp = new LinkedHashMap<>();
        Map<String, List<ToolRecord>> identical = new LinkedHashMap<>();
        for (ToolRecord r : trace.tools()) {
            perOp.merge(r.op(), 1, Integer::sum);
            identical.computeIfAbsent(r.op() + "\u0000" + r.fingerprint(), k -> new ArrayList<>()).add(r);
        }
        Integer cap = budget.maxToolCallsPerOp();
        if (cap != null) {
            perOp.forEach((op, n) -> {
                if (n > cap) {
                    out.add(new Violation(Invariant.BUDGET, name, op, ToolMessages.toolCalls(cap),
                            ToolMessages.toolCalls(n), ToolMessages.perOp(n, cap), ToolMessages.HINT_PER_OP));
                }
            });
        }
        Integer same = budget.maxIdenticalToolCalls();
        if (same != null) {
            for (List<ToolRecord> runs : identical.values()) {
                if (runs.size() > same) {
                    ToolRecord first = runs.get(0);
                    out.add(new Violation(Invariant.BUDGET, name, first.op(), ToolMessages.toolCalls(same),
                            ToolMessages.toolCalls(runs.size()),
                            ToolMessages.identical(first.name(), first.fingerprint(), runs.size(), same),
                            ToolMessages.HINT_IDENTICAL));
                }
            }
        }
        return out;
    }
}
