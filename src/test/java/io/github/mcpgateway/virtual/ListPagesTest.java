package io.github.mcpgateway.virtual;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

import io.github.mcpgateway.error.GatewayErrorException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ListPagesTest {

	private final JsonMapper json = JsonMapper.builder().build();

	private final ListPages pages = new ListPages(2);

	@Test
	void pageWhenTheListIsLongerThanAPageThenEveryItemComesOnceInOrderFollowingTheCursors() {
		ArrayNode items = items(5);
		List<String> seen = new ArrayList<>();
		JsonNode cursor = null;
		int answers = 0;
		do {
			ObjectNode result = this.json.createObjectNode();
			this.pages.page(items, cursor, "tools/list", "tools", result);
			result.path("tools").forEach((tool) -> seen.add(tool.path("name").asString()));
			cursor = result.get("nextCursor");
			answers++;
		}
		while (cursor != null);

		assertThat(seen).containsExactly("t0", "t1", "t2", "t3", "t4");
		assertThat(answers).isEqualTo(3);
	}

	@Test
	void pageWhenTheListFitsThenNoCursor() {
		ObjectNode result = this.json.createObjectNode();

		this.pages.page(items(2), null, "prompts/list", "prompts", result);

		assertThat(result.has("nextCursor")).isFalse();
		assertThat(result.path("prompts").size()).isEqualTo(2);
	}

	@Test
	void pageWhenTheCursorIsMadeUpOrAnotherListsThenListCursorInvalid() {
		ObjectNode first = this.json.createObjectNode();
		this.pages.page(items(5), null, "tools/list", "tools", first);
		JsonNode toolsCursor = first.get("nextCursor");

		for (JsonNode cursor : new JsonNode[] { StringNode.valueOf("made-up"), StringNode.valueOf(""),
				this.json.getNodeFactory().numberNode(2), this.json.createObjectNode().put("x", 1),
				this.json.createArrayNode(), toolsCursor }) {
			assertThatExceptionOfType(GatewayErrorException.class).isThrownBy(
					() -> this.pages.page(items(5), cursor, "prompts/list", "prompts", this.json.createObjectNode()))
				.satisfies((ex) -> assertThat(ex.error().code()).isEqualTo("list_cursor_invalid"));
		}
	}

	private ArrayNode items(int count) {
		ArrayNode items = this.json.createArrayNode();
		for (int i = 0; i < count; i++) {
			items.addObject().put("name", "t" + i);
		}
		return items;
	}

}
