package io.github.mcpgateway.demo;

import java.io.File;
import java.nio.file.Files;

import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.server.transport.HttpServletStatelessServerTransport;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import jakarta.servlet.http.HttpServlet;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.modeler.Registry;

/**
 * A real MCP server built with the official MCP Java SDK, served by its own embedded
 * Tomcat on loopback at {@code /mcp}: the upstream of the demo profile, and of the
 * end-to-end tests.
 *
 * <p>
 * {@link Mode#STREAMABLE} keeps sessions and answers tool calls as event streams;
 * {@link Mode#STATELESS} has no sessions and answers with JSON.
 */
public final class DemoMcpServer implements AutoCloseable {

	private final Tomcat tomcat;

	private final DemoTools tools;

	/** Closes the SDK server (its session sweeper is not a daemon thread). */
	private final Runnable closeServer;

	private DemoMcpServer(Tomcat tomcat, DemoTools tools, Runnable closeServer) {
		this.tomcat = tomcat;
		this.tools = tools;
		this.closeServer = closeServer;
	}

	/**
	 * Starts a server on {@code 127.0.0.1:port} ({@code 0} picks a free port).
	 */
	public static DemoMcpServer start(int port, Mode mode) {
		DemoTools tools = new DemoTools();
		SdkServer server = (mode == Mode.STREAMABLE) ? streamable(tools) : stateless(tools);
		return new DemoMcpServer(startTomcat(port, server.servlet()), tools, server.close());
	}

	/**
	 * The SDK's streamable HTTP server: sessions, tool calls answered as event streams.
	 */
	private static SdkServer streamable(DemoTools tools) {
		HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
			.mcpEndpoint("/mcp")
			.build();
		var spec = McpServer.sync(transport)
			.serverInfo("mcp-gateway-demo", "1.0")
			.capabilities(ServerCapabilities.builder().tools(true).build());
		tools.tools()
			.forEach((tool) -> spec.tools(McpServerFeatures.SyncToolSpecification.builder()
				.tool(tool.tool())
				.callHandler((exchange, request) -> tools.call(tool, request.arguments()))
				.build()));
		var built = spec.build();
		return new SdkServer(transport, () -> {
			built.close();
			// The transport's session sweeper is its own executor.
			transport.destroy();
		});
	}

	/** The SDK's stateless HTTP server: no sessions, every answer JSON. */
	private static SdkServer stateless(DemoTools tools) {
		HttpServletStatelessServerTransport transport = HttpServletStatelessServerTransport.builder()
			.messageEndpoint("/mcp")
			.build();
		var spec = McpServer.sync(transport)
			.serverInfo("mcp-gateway-demo", "1.0")
			.capabilities(ServerCapabilities.builder().tools(true).build());
		tools.tools()
			.forEach((tool) -> spec.tools(McpStatelessServerFeatures.SyncToolSpecification.builder()
				.tool(tool.tool())
				.callHandler((context, request) -> tools.call(tool, request.arguments()))
				.build()));
		return new SdkServer(transport, spec.build()::close);
	}

	private static Tomcat startTomcat(int port, HttpServlet servlet) {
		try {
			// JMX registration off, as Spring Boot's own Tomcat has it; whichever starts
			// first decides.
			Registry.disableRegistry();
			File baseDir = Files.createTempDirectory("mcp-demo-upstream").toFile();
			baseDir.deleteOnExit();
			Tomcat tomcat = new Tomcat();
			tomcat.setBaseDir(baseDir.getAbsolutePath());
			Connector connector = new Connector();
			connector.setPort(port);
			connector.setProperty("address", "127.0.0.1");
			tomcat.setConnector(connector);
			Context context = tomcat.addContext("", baseDir.getAbsolutePath());
			Wrapper wrapper = Tomcat.addServlet(context, "mcp", servlet);
			wrapper.setAsyncSupported(true);
			context.addServletMappingDecoded("/mcp", "mcp");
			tomcat.start();
			return tomcat;
		}
		catch (LifecycleException | java.io.IOException ex) {
			throw new IllegalStateException("Cannot start the demo MCP server on port " + port, ex);
		}
	}

	/** The port the server listens on. */
	public int port() {
		return this.tomcat.getConnector().getLocalPort();
	}

	/** The MCP endpoint URL. */
	public String url() {
		return "http://127.0.0.1:" + port() + "/mcp";
	}

	public DemoTools tools() {
		return this.tools;
	}

	@Override
	public void close() {
		try {
			this.closeServer.run();
			this.tomcat.stop();
			this.tomcat.destroy();
		}
		catch (Exception ex) {
			throw new IllegalStateException("Cannot stop the demo MCP server", ex);
		}
	}

	/** How the server speaks Streamable HTTP. */
	public enum Mode {

		/** Sessions, event-stream replies to tool calls. */
		STREAMABLE,
		/** No sessions, JSON replies. */
		STATELESS

	}

	/**
	 * An SDK server before Tomcat serves it: its transport servlet, and what closes it.
	 */
	private record SdkServer(HttpServlet servlet, Runnable close) {
	}

}
