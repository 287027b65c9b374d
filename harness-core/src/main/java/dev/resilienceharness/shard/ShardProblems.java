package dev.resilienceharness.shard;

import java.util.List;

/** Why shard outputs cannot be merged: one sentence per problem, each naming the folders concerned. */
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
