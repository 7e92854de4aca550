package io.github.mcpgateway.policy.condition;

import java.util.Map;

/**
 * What the string functions of one expression cost that a single step does not bound, by
 * the ids of their operands ({@link ConditionLanguage}); immutable.
 *
 * @param matched the strings a {@code matches} runs on, with the size of its program
 * @param haystacks the strings a {@code contains} searches, with the id of the call
 * @param needles the strings a {@code contains} searches for, with the id of the call
 */
record StringCosts(Map<Long, Integer> matched, Map<Long, Long> haystacks, Map<Long, Long> needles) {

	static final StringCosts NONE = new StringCosts(Map.of(), Map.of(), Map.of());

	StringCosts {
		matched = Map.copyOf(matched);
		haystacks = Map.copyOf(haystacks);
		needles = Map.copyOf(needles);
	}

	boolean isEmpty() {
		return this.matched.isEmpty() && this.haystacks.isEmpty();
	}

}
