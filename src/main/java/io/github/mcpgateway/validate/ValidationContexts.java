package io.github.mcpgateway.validate;

import java.util.List;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.security.oauth2.client.autoconfigure.OAuth2ClientProperties;

import io.github.mcpgateway.idempotency.IdempotencyProperties;
import io.github.mcpgateway.identity.IdentityProperties;
import io.github.mcpgateway.policy.PolicyProperties;
import io.github.mcpgateway.proxy.ProxyProperties;
import io.github.mcpgateway.quota.QuotaProperties;
import io.github.mcpgateway.request.RequestProperties;
import io.github.mcpgateway.revocation.RevocationProperties;
import io.github.mcpgateway.session.SessionProperties;
import io.github.mcpgateway.task.TaskProperties;
import io.github.mcpgateway.tracing.GatewayTracingProperties;
import io.github.mcpgateway.upstreamauth.UpstreamAuthProperties;

/**
 * The application contexts the validate command starts, one per group of configuration
 * properties, so that a broken group does not hide the problems of the others. Each binds
 * its properties exactly as the gateway does (same classes, same unknown-field and
 * validation rules) and holds nothing else: no auto-configuration, so no web server, no
 * scheduler and no client is created. Not {@code @Configuration} classes, so that the
 * gateway's component scan never picks them up; {@link SpringApplication} reads their
 * imports as sources.
 */
final class ValidationContexts {

	/** What the policy check needs: the client registrations and their keys. */
	static final List<Class<?>> POLICY_CHECK = List.of(Clients.class, UpstreamAuth.class);

	/** Every other group of gateway properties, checked with {@code --config}. */
	static final List<Class<?>> GATEWAY = List.of(Identity.class, Policy.class, Request.class, Session.class,
			Revocation.class, Quota.class, Idempotency.class, Task.class, Proxy.class, Tracing.class);

	private ValidationContexts() {
	}

	@EnableConfigurationProperties(OAuth2ClientProperties.class)
	static class Clients {

	}

	@EnableConfigurationProperties(UpstreamAuthProperties.class)
	static class UpstreamAuth {

	}

	@EnableConfigurationProperties(IdentityProperties.class)
	static class Identity {

	}

	@EnableConfigurationProperties(PolicyProperties.class)
	static class Policy {

	}

	@EnableConfigurationProperties(RequestProperties.class)
	static class Request {

	}

	@EnableConfigurationProperties(SessionProperties.class)
	static class Session {

	}

	@EnableConfigurationProperties(RevocationProperties.class)
	static class Revocation {

	}

	@EnableConfigurationProperties(QuotaProperties.class)
	static class Quota {

	}

	@EnableConfigurationProperties(IdempotencyProperties.class)
	static class Idempotency {

	}

	@EnableConfigurationProperties(TaskProperties.class)
	static class Task {

	}

	@EnableConfigurationProperties(ProxyProperties.class)
	static class Proxy {

	}

	@EnableConfigurationProperties(GatewayTracingProperties.class)
	static class Tracing {

	}

}
