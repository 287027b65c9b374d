package dev.resilienceharness.mcpclient.server;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * The billing server as a process of its own speaking MCP on stdin and stdout, as a client starts a stdio server.
 * It exits when its standard input closes.
 */
public final class StdioBillingServer {

    private StdioBillingServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        CountDownLatch stdinClosed = new CountDownLatch(1);
        StdioServerTransportProvider transport = new StdioServerTransportProvider(McpJsonDefaults.getMapper(),
                new SignalOnEnd(System.in, stdinClosed), System.out);
        McpSyncServer server = new BillingServer(20).serve(McpServer.sync(transport)).build();
        System.err.println("billing stdio server ready");
        stdinClosed.await();
        server.closeGracefully();
        System.exit(0);
    }

    /**
     * The command that starts this server with the current JVM and class path, for a test that starts it as a real
     * child process.
     */
    public static List<String> command() {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>();
        command.add(java);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(StdioBillingServer.class.getName());
        return command;
    }

    private static final class SignalOnEnd extends FilterInputStream {
        private final CountDownLatch ended;

        SignalOnEnd(InputStream in, CountDownLatch ended) {
            super(in);
            this.ended = ended;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b < 0) {
                ended.countDown();
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            if (n < 0) {
                ended.countDown();
            }
            return n;
        }
    }
}
