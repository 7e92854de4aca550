package io.github.mcpgateway.config;

import java.util.Set;

import org.springframework.boot.autoconfigure.AutoConfigurationImportFilter;
import org.springframework.boot.autoconfigure.AutoConfigurationMetadata;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;

/**
 * Keeps a set of Spring Boot auto-configurations out of the context unless the
 * configuration uses what they build. A gate decides once, from the environment, before
 * any auto-configuration is parsed: a closed gate costs nothing at start-up (no class of
 * theirs is read, no bean made, no thread started); an open one imports them unchanged.
 * Subclasses are registered in {@code META-INF/spring.factories} as
 * {@link AutoConfigurationImportFilter}s.
 */
public abstract class AutoConfigurationGate implements AutoConfigurationImportFilter, EnvironmentAware {

	private final Set<String> gated;

	private boolean open;

	/**
	 * A gate in front of {@code gated}, auto-configuration class names.
	 * @param gated imported only when {@link #isOpen(Environment)} says so
	 */
	protected AutoConfigurationGate(Set<String> gated) {
		this.gated = Set.copyOf(gated);
	}

	/** Whether {@code environment} uses what the gated auto-configurations build. */
	protected abstract boolean isOpen(Environment environment);

	@Override
	public final void setEnvironment(Environment environment) {
		this.open = isOpen(environment);
	}

	@Override
	public final boolean[] match(String[] autoConfigurationClasses, AutoConfigurationMetadata metadata) {
		boolean[] matches = new boolean[autoConfigurationClasses.length];
		for (int i = 0; i < matches.length; i++) {
			String candidate = autoConfigurationClasses[i];
			matches[i] = this.open || candidate == null || !this.gated.contains(candidate);
		}
		return matches;
	}

}
