package io.github.mcpgateway.validate;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Binds the gateway's configuration as the running gateway would, without starting it:
 * one context per group of properties ({@link ValidationContexts}), each from the
 * packaged defaults plus the file given (and the profiles it activates), so that a group
 * that does not bind hides no problem of another. The file's keys outside
 * {@code gateway.*} are checked against the classpath's metadata ({@link UnknownKeys}).
 * Nothing is started: no web server, no listener, no scheduler, no network client.
 */
final class ConfigurationBinding {

	private final Consumer<ConfigurableApplicationContext> inspector;

	/**
	 * @param inspector sees each context while it is open (tests check that it listens on
	 * nothing)
	 */
	ConfigurationBinding(Consumer<ConfigurableApplicationContext> inspector) {
		this.inspector = inspector;
	}

	/**
	 * Binds the groups the policy check needs and, with a {@code config} file, every
	 * group of gateway properties; a {@code policy} given replaces
	 * {@code gateway.policy.location}.
	 */
	Bound bind(@Nullable String policy, @Nullable String config) {
		List<String> args = new ArrayList<>(List.of("--spring.main.web-application-type=none",
				"--spring.main.banner-mode=off", "--spring.main.log-startup-info=false", "--logging.level.root=OFF",
				"--spring.main.register-shutdown-hook=false"));
		if (config != null) {
			args.add("--spring.config.additional-location=file:" + Path.of(config).toAbsolutePath());
		}
		if (policy != null) {
			args.add("--gateway.policy.location=" + policy);
		}
		List<Class<?>> groups = new ArrayList<>(ValidationContexts.POLICY_CHECK);
		if (config != null) {
			groups.addAll(ValidationContexts.GATEWAY);
		}
		Map<Class<?>, Object> bound = new LinkedHashMap<>();
		List<String> problems = new ArrayList<>();
		for (Class<?> group : groups) {
			Object properties = bind(group, args, problems);
			if (properties != null) {
				bound.put(properties.getClass(), properties);
			}
		}
		if (config != null) {
			problems.addAll(unknownKeys(config));
		}
		return new Bound(bound, problems);
	}

	/** Keys outside {@code gateway.*} that no metadata of the classpath declares. */
	private static List<String> unknownKeys(String config) {
		try {
			return new UnknownKeys(KnownProperties.of(ValidateCommand.class.getClassLoader())).in(Path.of(config));
		}
		catch (java.io.IOException | RuntimeException ex) {
			// A file that cannot be read as configuration fails the binding already.
			return List.of();
		}
	}

	/**
	 * Starts the context of one group, returns its properties bean, or {@code null} after
	 * adding why it could not be bound to {@code problems}. Only a failure to start the
	 * context is a configuration problem: anything after it (the inspector, the bean
	 * look-up) is a failure of the command and propagates, never a false "invalid".
	 */
	private @Nullable Object bind(Class<?> group, List<String> args, List<String> problems) {
		SpringApplication application = new SpringApplication(group);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.setBannerMode(Banner.Mode.OFF);
		application.setLogStartupInfo(false);
		application.setRegisterShutdownHook(false);
		ConfigurableApplicationContext context;
		try {
			context = application.run(args.toArray(String[]::new));
		}
		catch (RuntimeException ex) {
			// Only a context that does not start is a problem of the configuration.
			problems.addAll(ConfigurationProblems.describe(ex));
			return null;
		}
		try (context) {
			this.inspector.accept(context);
			EnableConfigurationProperties enabled = group.getAnnotation(EnableConfigurationProperties.class);
			return context.getBean(enabled.value()[0]);
		}
	}

	/**
	 * What a binding gave.
	 *
	 * @param properties the properties bean of every group that bound, by its class
	 * @param problems one line per problem, in the order found (a line may repeat: groups
	 * share the defaults)
	 */
	record Bound(Map<Class<?>, Object> properties, List<String> problems) {
	}

}
