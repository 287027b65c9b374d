package dev.resilienceharness.scenario;

import dev.resilienceharness.transport.RepairRequest;
import java.util.AbstractSet;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import tools.jackson.databind.node.ObjectNode;

/**
 * A scenario's ops as its runs use them, made once per list of ops when the rehearsal is prepared: each op's request
 * (the template the built-in loop sends as it is), the exchange that answers a call sending that very node, and where
 * that exchange's answer was last held. A run finds what a call needs among its own few ops, instead of in maps over
 * every op of the config (the op's request by name, the exchange by the request's identity, the answer by its file):
 * on a corpus whose answers do not fit the CPU's caches each of those look-ups was a miss, and a run made several per
 * call.
 *
 * <p>It is also the set of the scenario's ops, in the order they are listed, for a call's checks and messages; the
 * set proper is only made for a message. Immutable but for that set and where answers were held; safe to share
 * between runs on any thread.
 */
final class RunOps extends AbstractSet<String> {

    private final List<String> ops;
    private final String[] names;
    /** By index of {@link #names}: the op's request, or {@code null} when the rehearsal prepared none. */
    private final ObjectNode[] templates;
    /** By index: the exchange a call sending {@code templates[i]} itself is answered from, or {@code null}. */
    private final OpExchange[] exchanges;
    /**
     * By index: where the recorded answer to {@code exchanges[i]} was held when a run last took it, so that the next
     * run goes to it directly while the cache keeps it ({@link RecordedAnswers#answer(OpExchange,
     * RecordedAnswers.Held[], int)}); runs on any thread set it, each to a holder of that one answer.
     */
    private final RecordedAnswers.Held[] held;
    private volatile Set<String> distinct;

    private RunOps(List<String> ops, ObjectNode[] templates, OpExchange[] exchanges) {
        this.ops = ops;
        this.names = ops.toArray(new String[0]);
        this.templates = templates;
        this.exchanges = exchanges;
        this.held = new RecordedAnswers.Held[exchanges.length];
    }

    /** {@code ops} with nothing prepared: every look-up goes to the rehearsal's maps. */
    static RunOps of(List<String> ops) {
        return new RunOps(ops, new ObjectNode[ops.size()], new OpExchange[ops.size()]);
    }

    /**
     * {@code ops} with each op's prepared request ({@code template}, {@code null} for none) and the exchange a call
     * sending it is answered from ({@code exchangeOf}, {@code null} for none). A request carrying a {@code repair} is
     * sent as a repair would be, and is always looked up.
     */
    static RunOps prepared(List<String> ops, Function<String, ObjectNode> template,
            Function<ObjectNode, OpExchange> exchangeOf) {
        ObjectNode[] templates = new ObjectNode[ops.size()];
        OpExchange[] exchanges = new OpExchange[ops.size()];
        for (int i = 0; i < ops.size(); i++) {
            templates[i] = template.apply(ops.get(i));
            if (templates[i] != null && !templates[i].has(RepairRequest.MARKER)) {
                exchanges[i] = exchangeOf.apply(templates[i]);
            }
        }
        return new RunOps(ops, templates, exchanges);
    }

    /** The prepared request of {@code op}, or {@code null} when there is none. */
    ObjectNode template(String op) {
        // The config's scenarios share one String per op name, so equals mostly ends at its identity test.
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(op)) {
                return templates[i];
            }
        }
        return null;
    }

    /**
     * Where {@code payload} is among the prepared requests, when it is one of them itself and its exchange is known;
     * else -1.
     */
    int indexSending(ObjectNode payload) {
        for (int i = 0; i < templates.length; i++) {
            if (templates[i] == payload && exchanges[i] != null) {
                return i;
            }
        }
        return -1;
    }

    /** The exchange answering a call that sends prepared request {@code i} ({@link #indexSending}). */
    OpExchange exchange(int i) {
        return exchanges[i];
    }

    /** The recorded answer to {@link #exchange exchange} {@code i}, from {@code recorded}. */
    RecordedAnswers.Answer answer(int i, RecordedAnswers recorded) {
        return recorded.answer(exchanges[i], held, i);
    }

    @Override
    public boolean contains(Object o) {
        return ops.contains(o);
    }

    @Override
    public Iterator<String> iterator() {
        return distinct().iterator();
    }

    @Override
    public int size() {
        return distinct().size();
    }

    private Set<String> distinct() {
        Set<String> d = distinct;
        if (d == null) {
            d = Collections.unmodifiableSet(new LinkedHashSet<>(ops));
            distinct = d;
        }
        return d;
    }
}
