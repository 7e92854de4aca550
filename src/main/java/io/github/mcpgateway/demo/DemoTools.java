package io.github.mcpgateway.demo;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;

/**
 * The demo server's tools. {@code notes_create} has a visible side effect (the note count
 * grows), which is what an idempotency key protects; {@code admin_reset} is not granted
 * to anybody in the demo policy, to show a 403.
 */
public final class DemoTools {

	private final ConcurrentLinkedQueue<String> notes = new ConcurrentLinkedQueue<>();

	private final AtomicInteger executions = new AtomicInteger();

	/**
	 * Number of tool calls this server has executed, for tests that count upstream
	 * executions.
	 */
	public int executions() {
		return this.executions.get();
	}

	List<DemoTool> tools() {
		return List.of(
				new DemoTool(tool("echo", "Returns the text it is given", "text"),
						(args) -> text(String.valueOf(args.get("text")))),
				new DemoTool(tool("notes_create", "Creates a note and returns how many notes exist", "text"),
						this::createNote),
				new DemoTool(tool("notes_list", "Lists the notes", null),
						(args) -> text(String.join("\n", this.notes))),
				new DemoTool(tool("admin_reset", "Deletes every note", null), (args) -> {
					this.notes.clear();
					return text("reset");
				}));
	}

	private CallToolResult createNote(Map<String, Object> args) {
		this.notes.add(String.valueOf(args.get("text")));
		return text("note " + this.notes.size() + " created");
	}

	private static Tool tool(String name, String description, String stringArgument) {
		Map<String, Object> schema = (stringArgument != null) ? Map.of("type", "object", "properties",
				Map.of(stringArgument, Map.of("type", "string")), "required", List.of(stringArgument))
				: Map.of("type", "object", "properties", Map.of());
		return Tool.builder().name(name).description(description).inputSchema(schema).build();
	}

	private static CallToolResult text(String text) {
		return CallToolResult.builder().addTextContent(text).isError(false).build();
	}

	/** A tool and what it does with its arguments. */
	record DemoTool(Tool tool, Function<Map<String, Object>, CallToolResult> handler) {
	}

	CallToolResult call(DemoTool tool, Map<String, Object> arguments) {
		this.executions.incrementAndGet();
		return tool.handler().apply((arguments != null) ? arguments : Map.of());
	}

}
