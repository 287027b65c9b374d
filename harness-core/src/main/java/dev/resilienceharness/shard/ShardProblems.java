package dev.resilienceharness.shard;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;
import org.apiguardian.api.API;

/** Why shard outputs cannot be merged: one sentence per problem, each naming the folders concerned. */
@API(status = INTERNAL, since = "0.1.0")
public final class ShardProblems extends Exception {

    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    public ShardProblems(List<String> problems) {
        super(String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    /** Each problem, in the order found. */
    public List<String> problems() {
        return problems;
    }
}
