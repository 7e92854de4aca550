package io.github.mcpgateway.request;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;

import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.principal.IdentityMode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class ContextSlotTest {

	private final McpRequestContext context = McpRequestContext.open(new MockHttpServletRequest(),
			new McpServerPolicy("test", "echo", "uid-echo", URI.create("http://upstream.example/mcp"), null,
					"/mcp/test/echo", IdentityMode.OAUTH, null, null, null),
			null, 0);

	@Test
	void writerWhenClaimedTwiceThenFails() {
		ContextSlot<String> slot = ContextSlot.declare("once");
		slot.writer();

		assertThatIllegalStateException().isThrownBy(slot::writer).withMessageContaining("once");
	}

	@Test
	void getWhenNobodyWroteTheSlotThenNull() {
		ContextSlot<String> written = ContextSlot.declare("written");
		written.writer().put(this.context, "value");

		assertThat(this.context.get(ContextSlot.<String>declare("unwritten"))).isNull();
		assertThat(this.context.get(written)).isEqualTo("value");
	}

	@Test
	void getWhenManySlotsWrittenThenEachReadsItsOwnValue() {
		List<ContextSlot<Integer>> slots = new ArrayList<>();
		for (int i = 0; i < 40; i++) {
			ContextSlot<Integer> slot = ContextSlot.declare("slot " + i);
			slot.writer().put(this.context, i);
			slots.add(slot);
		}

		for (int i = 0; i < 40; i++) {
			assertThat(this.context.get(slots.get(i))).isEqualTo(i);
		}
	}

	@Test
	void contributionsWhenWrittenInAnyOrderThenInTheirPositionsOrder() {
		ContextSlot.<Contribution>declare("third").writer().put(this.context, new Contribution(300));
		ContextSlot.<String>declare("not a contribution").writer().put(this.context, "ignored");
		ContextSlot.<Contribution>declare("first").writer().put(this.context, new Contribution(100));
		ContextSlot.<Contribution>declare("second").writer().put(this.context, new Contribution(200));

		assertThat(this.context.slots.contributions()).extracting(AuditContribution::position)
			.containsExactly(100, 200, 300);
	}

	@Test
	void contributionsWhenNoneRecordedThenEmpty() {
		assertThat(this.context.slots.contributions()).isEmpty();
		ContextSlot.<String>declare("not a contribution either").writer().put(this.context, "ignored");

		assertThat(this.context.slots.contributions()).isEmpty();
	}

	@Test
	void contributionsWhenTwoShareAPositionThenInTheOrderOfTheirSlots() {
		Contribution later = new Contribution(200);
		Contribution earlier = new Contribution(200);
		ContextSlot.<Contribution>declare("declared first").writer().put(this.context, earlier);
		ContextSlot.<Contribution>declare("declared second").writer().put(this.context, later);
		ContextSlot.<Contribution>declare("before both").writer().put(this.context, new Contribution(100));

		assertThat(this.context.slots.contributions()).element(1).isSameAs(earlier);
		assertThat(this.context.slots.contributions()).element(2).isSameAs(later);
	}

	private record Contribution(int position) implements AuditContribution {

		@Override
		public void writeFields(BiConsumer<String, @Nullable String> field) {
		}

	}

}
