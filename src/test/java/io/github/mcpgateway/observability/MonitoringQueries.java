package io.github.mcpgateway.observability;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The PromQL of the chart's dashboard and alert rules, and the metric names it reads.
 */
final class MonitoringQueries {

	static final Path DASHBOARD = Path.of("helm/mcp-gateway/files/dashboard.json");

	static final Path RULES = Path.of("helm/mcp-gateway/files/prometheus-rules.yaml");

	/** PromQL words that are not metric names. */
	private static final Set<String> KEYWORDS = Set.of("sum", "min", "max", "avg", "count", "rate", "irate", "increase",
			"histogram_quantile", "by", "on", "without", "ignoring", "group_left", "group_right", "and", "or", "unless",
			"bool", "abs", "clamp_min", "clamp_max", "topk", "bottomk", "label_values", "offset");

	private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

	private MonitoringQueries() {
	}

	/** Every {@code expr} of the dashboard's panels and the rule file's rules. */
	static List<String> expressions() throws IOException {
		List<String> expressions = new ArrayList<>();
		JsonNode dashboard = JsonMapper.builder().build().readTree(Files.readString(DASHBOARD));
		for (JsonNode panel : dashboard.get("panels")) {
			if (panel.has("targets")) {
				panel.get("targets").forEach((target) -> expressions.add(target.get("expr").asString()));
			}
		}
		JsonNode rules = YAMLMapper.builder().build().readTree(RULES.toFile());
		for (JsonNode group : rules.get("groups")) {
			group.get("rules").forEach((rule) -> expressions.add(rule.get("expr").asString()));
		}
		return expressions;
	}

	/**
	 * The metric names {@code expression} selects: what is left once label matchers,
	 * ranges, grouping labels, numbers, strings and PromQL words are taken out.
	 */
	static Set<String> metricNames(String expression) {
		String stripped = expression.replaceAll("\"[^\"]*\"", " ")
			.replaceAll("\\{[^}]*}", " ")
			.replaceAll("\\[[^]]*]", " ")
			.replaceAll("\\b(by|on|without|ignoring)\\s*\\([^)]*\\)", " ");
		Set<String> names = new TreeSet<>();
		Matcher matcher = IDENTIFIER.matcher(stripped);
		while (matcher.find()) {
			String word = matcher.group();
			if (!KEYWORDS.contains(word) && !word.matches("[0-9eE]+")) {
				names.add(word);
			}
		}
		return names;
	}

}
