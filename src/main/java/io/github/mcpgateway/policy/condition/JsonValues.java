package io.github.mcpgateway.policy.condition;

import java.math.BigDecimal;
import java.util.AbstractList;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.RandomAccess;
import java.util.Set;

import dev.cel.common.values.NullValue;
import tools.jackson.databind.JsonNode;

/**
 * JSON values as CEL reads them, converted as they are read: an object is a map view and
 * an array a list view over the request's own parsed tree, so that an expression pays for
 * what it reads, within its budget, and never for a whole body it does not look at.
 * Integers are {@code int} (a {@code long}), other numbers {@code double}, {@code null}
 * CEL's {@code null}.
 *
 * <p>
 * A number CEL cannot hold exactly (an integer beyond 64 bits, a decimal that a
 * {@code double} rounds, an overflow) is not rounded: reading it is an error
 * ({@link Unrepresentable}), so that a condition never decides on a value other than the
 * one the upstream receives.
 */
final class JsonValues {

	private JsonValues() {
	}

	static Object valueOf(JsonNode node) {
		if (node.isObject()) {
			return new ObjectView(node);
		}
		if (node.isArray()) {
			return new ArrayView(node);
		}
		if (node.isIntegralNumber()) {
			if (!node.canConvertToLong()) {
				throw new Unrepresentable();
			}
			return node.longValue();
		}
		if (node.isNumber()) {
			return exactDouble(node);
		}
		if (node.isString()) {
			return node.stringValue();
		}
		if (node.isBoolean()) {
			return node.booleanValue();
		}
		return NullValue.NULL_VALUE;
	}

	private static Double exactDouble(JsonNode node) {
		if (!node.isBigDecimal()) {
			double value = node.doubleValue();
			if (Double.isInfinite(value) || Double.isNaN(value)) {
				throw new Unrepresentable();
			}
			return value;
		}
		BigDecimal decimal = node.decimalValue();
		double value = decimal.doubleValue();
		if (Double.isInfinite(value) || new BigDecimal(Double.toString(value)).compareTo(decimal) != 0) {
			throw new Unrepresentable();
		}
		return value;
	}

	/** A JSON number CEL cannot hold exactly; no stack, it is a refusal. */
	static final class Unrepresentable extends RuntimeException {

		Unrepresentable() {
			super("a number of the request has no exact CEL value", null, false, false);
		}

	}

	/** A JSON object as a read-only map; members converted when read. */
	private static final class ObjectView extends AbstractMap<String, Object> {

		private final JsonNode node;

		ObjectView(JsonNode node) {
			this.node = node;
		}

		@Override
		public Object get(Object key) {
			JsonNode member = (key instanceof String name) ? this.node.get(name) : null;
			return (member != null) ? valueOf(member) : null;
		}

		@Override
		public boolean containsKey(Object key) {
			return key instanceof String name && this.node.has(name);
		}

		@Override
		public int size() {
			return this.node.size();
		}

		/** The member names, without converting the members' values. */
		@Override
		public Set<String> keySet() {
			return new AbstractSet<>() {

				@Override
				public Iterator<String> iterator() {
					return ObjectView.this.node.propertyNames().iterator();
				}

				@Override
				public int size() {
					return ObjectView.this.node.size();
				}

				@Override
				public boolean contains(Object key) {
					return containsKey(key);
				}

			};
		}

		@Override
		public Set<Map.Entry<String, Object>> entrySet() {
			return new AbstractSet<>() {

				@Override
				public Iterator<Map.Entry<String, Object>> iterator() {
					Iterator<Map.Entry<String, JsonNode>> members = ObjectView.this.node.properties().iterator();
					return new Iterator<>() {

						@Override
						public boolean hasNext() {
							return members.hasNext();
						}

						@Override
						public Map.Entry<String, Object> next() {
							Map.Entry<String, JsonNode> member = members.next();
							return new SimpleImmutableEntry<>(member.getKey(), valueOf(member.getValue()));
						}

					};
				}

				@Override
				public int size() {
					return ObjectView.this.node.size();
				}

			};
		}

	}

	/** A JSON array as a read-only list; elements converted when read. */
	private static final class ArrayView extends AbstractList<Object> implements RandomAccess {

		private final JsonNode node;

		ArrayView(JsonNode node) {
			this.node = node;
		}

		@Override
		public Object get(int index) {
			if (index < 0 || index >= this.node.size()) {
				throw new IndexOutOfBoundsException(index);
			}
			return valueOf(this.node.get(index));
		}

		@Override
		public int size() {
			return this.node.size();
		}

	}

}
