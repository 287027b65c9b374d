package dev.resilienceharness.mcpclient.server;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/** The billing server over Streamable HTTP, in an embedded Tomcat bound to 127.0.0.1 on a free port. */
public final class HttpBillingServer implements AutoCloseable {

    /** The path the MCP endpoint is served on. */
    public static final String ENDPOINT = "/mcp";

    private final Tomcat tomcat;
    private final McpSyncServer server;
    private final URI url;

    private HttpBillingServer(Tomcat tomcat, McpSyncServer server, URI url) {
        this.tomcat = tomcat;
        this.server = server;
        this.url = url;
    }

    /** Starts a server whose Tomcat works under {@code baseDir}. */
    public static HttpBillingServer start(Path baseDir) throws IOException, LifecycleException {
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider
                .builder().jsonMapper(McpJsonDefaults.getMapper()).mcpEndpoint(ENDPOINT).build();
        McpSyncServer server = new BillingServer(20).serve(McpServer.sync(transport)).build();

        Tomcat tomcat = new Tomcat();
        tomcat.setSilent(true);
        tomcat.setBaseDir(Files.createDirectories(baseDir).toString());
        Connector connector = new Connector();
        connector.setPort(0);
        connector.setProperty("address", "127.0.0.1");
        tomcat.getService().addConnector(connector);
        tomcat.setConnector(connector);
        Context context = tomcat.addContext("", null);
        Tomcat.addServlet(context, "mcp", transport).setAsyncSupported(true);
        context.addServletMappingDecoded(ENDPOINT, "mcp");
        tomcat.start();
        URI url = URI.create("http://127.0.0.1:" + connector.getLocalPort() + ENDPOINT);
        return new HttpBillingServer(tomcat, server, url);
    }

    /** The url of the MCP endpoint, such as {@code http://127.0.0.1:41234/mcp}. */
    public URI url() {
        return url;
    }

    @Override
    public void close() throws LifecycleException {
        server.closeGracefully();
        tomcat.stop();
        tomcat.destroy();
    }
}
