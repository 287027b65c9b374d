package dev.resilienceharness.clients.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.exception.LangChain4jException;
import dev.langchain4j.mcp.client.DefaultMcpClient;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import java.util.List;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A loop that calls the billing MCP server's {@code refund} itself, through langchain4j-mcp's {@code DefaultMcpClient}
 * on the run's server, in one op {@code refund}. A careful loop knows the client's timeout text for what it is; a
 * blind one takes any result for success.
 */
public final class McpRefundLoop implements AgentLoop {

    static final String TIMEOUT_TEXT = "There was a timeout executing the tool";

    private final boolean careful;
    private final java.util.function.Consumer<DefaultMcpClient.Builder> settings;
    /** The text or failure the client handed the loop, for the test to read. */
    volatile String seen;
    /** The progress notifications the client's progress handler got. */
    final List<Double> progress = new java.util.concurrent.CopyOnWriteArrayList<>();

    McpRefundLoop(boolean careful) {
        this(careful, builder -> { });
    }

    /** @param settings what the team sets on the client's builder */
    McpRefundLoop(boolean careful, java.util.function.Consumer<DefaultMcpClient.Builder> settings) {
        this.careful = careful;
        this.settings = settings;
    }

    @Override
    public List<Outcome> run(LoopRun run) {
        try (DefaultMcpClient billing = HarnessLangChain4j.mcpClient(run, "billing", builder -> {
                    builder.progressHandler(p -> progress.add(p.progress()));
                    settings.accept(builder);
                });
                var scope = run.op("refund")) {
            billing.listTools();
            ToolExecutionResult result;
            try {
                result = billing.executeTool(ToolExecutionRequest.builder().id("call_refund").name("refund")
                        .arguments("{\"order\":\"A1\"}").build());
            } catch (LangChain4jException e) {
                seen = e.getClass().getSimpleName() + ": " + e.getMessage()
                        + (e.getCause() == null ? "" : " / " + e.getCause().getMessage());
                return List.of(Outcome.degraded("refund", "the refund failed: " + e.getMessage(), 1));
            }
            seen = result.resultText();
            if (careful && TIMEOUT_TEXT.equals(result.resultText())) {
                return List.of(Outcome.degraded("refund", "the refund service did not answer in time", 1));
            }
            billing.listTools(); // from the client's cache, unless the server said its tools changed
            return List.of(Outcome.ok("refund", JsonNodeFactory.instance.stringNode(result.resultText()), 1));
        }
    }
}
