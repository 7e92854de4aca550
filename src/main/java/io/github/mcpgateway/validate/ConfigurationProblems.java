package io.github.mcpgateway.validate;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.origin.Origin;
import org.springframework.validation.FieldError;
import org.springframework.validation.ObjectError;

/**
 * Words a failed start of the configuration context as one line per problem, each with
 * where it was set (file, line and column, from Spring Boot's property origins) and the
 * property: the facts Spring Boot's own start-up report gives, without its layout.
 */
final class ConfigurationProblems {

	private ConfigurationProblems() {
	}

	/**
	 * The problems of a failed start: every property no class binds, or every constraint
	 * a bound value breaks, whichever the cause chain meets first; else the one value
	 * that could not be converted; else the root cause's message.
	 */
	static List<String> describe(Throwable failure) {
		List<String> problems = new ArrayList<>();
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof UnboundConfigurationPropertiesException unbound) {
				problems.addAll(unknown(unbound));
				return problems;
			}
			if (cause instanceof BindValidationException validation) {
				problems.addAll(invalid(validation));
				return problems;
			}
		}
		BindException bind = find(failure, BindException.class);
		if (bind != null) {
			problems.add(unreadable(bind));
			return problems;
		}
		Throwable root = rootCause(failure);
		problems.add((root.getMessage() != null) ? root.getMessage() : root.getClass().getSimpleName());
		return problems;
	}

	/** One line per property set that no configuration class binds. */
	private static List<String> unknown(UnboundConfigurationPropertiesException unbound) {
		List<String> problems = new ArrayList<>();
		for (ConfigurationProperty property : unbound.getUnboundProperties()) {
			problems.add(at(property.getOrigin()) + property.getName() + ": not a property the gateway knows");
		}
		return problems;
	}

	/** One line per broken constraint, naming the field as it is written in a file. */
	private static List<String> invalid(BindValidationException validation) {
		List<String> problems = new ArrayList<>();
		for (ObjectError error : validation.getValidationErrors().getAllErrors()) {
			String field = (error instanceof FieldError fieldError)
					? validation.getValidationErrors().getName() + "." + kebab(fieldError.getField())
					: validation.getValidationErrors().getName().toString();
			problems.add(at(Origin.from(error)) + field + ": " + error.getDefaultMessage());
		}
		return problems;
	}

	/**
	 * The line for a value that cannot be converted to its type: an enum names its
	 * constants as they are written in a file, another type the converter's reason.
	 */
	private static String unreadable(BindException bind) {
		ConfigurationProperty property = bind.getProperty();
		Throwable reason = rootCause(bind);
		String name = (property != null) ? property.getName().toString() : bind.getName().toString();
		Class<?> target = bind.getTarget().getType().resolve(Object.class);
		String value = (property != null) ? "'" + property.getValue() + "'" : "the value";
		String why;
		if (target.isEnum()) {
			why = value + " is not one of " + java.util.Arrays.stream(target.getEnumConstants())
				.map((constant) -> ((Enum<?>) constant).name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'))
				.toList();
		}
		else {
			why = value + " cannot be read as a " + target.getSimpleName()
					+ ((reason != bind && reason.getMessage() != null) ? " (" + reason.getMessage() + ")" : "");
		}
		return at((property != null) ? property.getOrigin() : null) + name + ": " + why;
	}

	/** {@code oauth.jwkSetUri} as it is written in a file: {@code oauth.jwk-set-uri}. */
	private static String kebab(String field) {
		return field.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
	}

	private static String at(@Nullable Origin origin) {
		return (origin != null) ? origin + ": " : "";
	}

	private static <T extends Throwable> @Nullable T find(Throwable failure, Class<T> type) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (type.isInstance(cause)) {
				return type.cast(cause);
			}
		}
		return null;
	}

	private static Throwable rootCause(Throwable failure) {
		Throwable root = failure;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		return root;
	}

}
