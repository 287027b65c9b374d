package dev.resilienceharness.invariant;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.Budget;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.RunTrace;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * The token side of the budget: {@code budget.max_tokens_per_scenario} and {@code budget.max_tokens_per_op} bound the
 * tokens of every answered call, retries and repairs included.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class TokenBudget implements ScenarioInvariant {

    private final Budget budget;

    public TokenBudget(Budget budget) {
        this.budget = budget;
    }

    @Override
    public Invariant invariant() {
        return Invariant.BUDGET;
    }

    /** Tokens each op spent, in order of first call. */
    public static Map<String, Long> byOp(RunTrace trace) {
        Map<String, Long> spent = new LinkedHashMap<>();
        for (CallRecord call : trace.calls()) {
            spent.merge(call.op(), call.tokens().total(), Long::sum);
        }
        return spent;
    }

    /** Tokens the whole run spent. */
    public static long total(RunTrace trace) {
        long sum = 0;
        for (CallRecord call : trace.calls()) {
            sum += call.tokens().total();
        }
        return sum;
    }

    @Override
    public List<Violation> check(RunTrace trace) {
        List<Violation> out = new ArrayList<>();
        String name = trace.scenario().name();
        Long perOp = budget.maxTokensPerOp();
        if (perOp != null) {
            byOp(trace).forEach((op, spent) -> {
                if (spent > perOp) {
                    List<CallRecord> ofOp = trace.calls().stream().filter(c -> c.op().equals(op)).toList();
                    out.add(withSdk(new Violation(Invariant.BUDGET, name, op, Messages.tokens(perOp),
                            Messages.tokens(spent), Messages.opTokens(spent, perOp), Messages.HINT_TOKENS), ofOp));
                }
            });
        }
        Long perScenario = budget.maxTokensPerScenario();
        long total = total(trace);
        if (perScenario != null && total > perScenario) {
            out.add(withSdk(new Violation(Invariant.BUDGET, name, null, Messages.tokens(perScenario),
                    Messages.tokens(total), Messages.scenarioTokens(total, perScenario), Messages.HINT_TOKENS),
                    trace.calls()));
        }
        return out;
    }

    /** {@code v}, naming the SDK whose own retries among {@code calls} spent tokens, and its fix. */
    private static Violation withSdk(Violation v, List<CallRecord> calls) {
        String sdk = SdkLayer.ofCalls(calls);
        long tokens = SdkLayer.retryTokens(calls);
        if (sdk == null || tokens == 0) {
            return v;
        }
        int retries = SdkLayer.retries(calls);
        return new Violation(v.invariant(), v.subject(), v.op(), v.bound(), v.actual(),
                v.message() + Messages.tokensBySdk(sdk, tokens, retries), Messages.hintSdkTokens(sdk, retries));
    }
}
