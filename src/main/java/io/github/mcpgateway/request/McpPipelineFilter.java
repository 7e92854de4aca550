package io.github.mcpgateway.request;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.util.Assert;
import org.springframework.web.filter.OncePerRequestFilter;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrorException;
import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.identity.McpAuthentication;
import io.github.mcpgateway.jsonrpc.JsonRpcMessageParser;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.request.StageDecision.Refuse;
import io.github.mcpgateway.request.StageDecision.Wrap;
import io.github.mcpgateway.routing.ServerLocator;
import io.github.mcpgateway.transport.SilentReplies;

/**
 * The MCP pipeline after identity, as one servlet filter: for a request on a server path
 * it opens the {@link McpRequestContext}, admits the request ({@link RequestAdmission}),
 * asks each {@link McpStage} in order for its {@link StageDecision} and acts on it, runs
 * the rest of the chain (the Spring Cloud Gateway route that proxies the request) when
 * every stage went on, then runs the stages' {@link Completion}s innermost first, and
 * hands one {@link McpAuditEvent} to every {@link McpAuditListener} when the request is
 * done. Its {@link PipelineObserver} (tracing, when on) is told when the request is taken
 * over, around each stage's decision and at the end; it decides nothing.
 *
 * <p>
 * The filter orchestrates; the stages decide. It stops at the first refusal and answers
 * it ({@link Refusals}); a refusal of the request stage may be changed by a later
 * capability first ({@link RequestRefusalCustomizer}). A failure nothing answered becomes
 * 500 {@code internal_error} while the response can still be written, and is thrown on
 * for the container to abandon the connection once it cannot. A request on a path no
 * server is on passes through untouched, to the gateway's 404.
 */
public final class McpPipelineFilter extends OncePerRequestFilter {

	private static final Log logger = LogFactory.getLog(McpPipelineFilter.class);

	private final ServerLocator servers;

	private final RequestAdmission admission;

	private final List<McpStage> stages;

	private final Refusals refusals;

	private final List<RequestRefusalCustomizer> refusalCustomizers;

	private final List<McpAuditListener> auditListeners;

	private final GatewayClock clock;

	private final PipelineObserver observer;

	private final SilentReplies silentReplies;

	/**
	 * @param stages the stages after the request stage, in the order they decide
	 * @param observer told about each request, stage decision and end
	 * ({@link PipelineObserver#NONE} for none)
	 * @param silentReplies which responses may turn into an event stream while their
	 * upstream is silent ({@link SilentReplies#OFF} for none)
	 */
	public McpPipelineFilter(ServerLocator servers, RequestProperties properties, JsonRpcMessageParser parser,
			List<McpStage> stages, Refusals refusals, List<RequestRefusalCustomizer> refusalCustomizers,
			List<McpAuditListener> auditListeners, GatewayClock clock, PipelineObserver observer,
			SilentReplies silentReplies) {
		Assert.notNull(servers, "servers must not be null");
		Assert.notNull(properties, "properties must not be null");
		Assert.notNull(parser, "parser must not be null");
		Assert.notNull(refusals, "refusals must not be null");
		Assert.notNull(clock, "clock must not be null");
		Assert.notNull(observer, "observer must not be null");
		this.servers = servers;
		this.admission = new RequestAdmission(
				new RequestBodyReader(properties.maxBodySize(), properties.bodyReadTimeout(), clock), parser);
		this.stages = List.copyOf(stages);
		this.refusals = refusals;
		this.refusalCustomizers = List.copyOf(refusalCustomizers);
		this.auditListeners = List.copyOf(auditListeners);
		this.clock = clock;
		this.observer = observer;
		this.silentReplies = silentReplies;
	}

	/** The stages, in the order they decide. */
	public List<McpStage> stages() {
		return this.stages;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		McpServerPolicy server = this.servers.serverOf(request);
		if (server == null) {
			chain.doFilter(request, response);
			return;
		}
		McpRequestContext context = McpRequestContext.open(request, server, principal(), this.clock.nanoTime());
		this.observer.started(request, context);
		Deque<Completion> completions = new ArrayDeque<>(4);
		Throwable failure = null;
		HttpServletResponse client = response;
		try {
			McpExchange exchange = admit(request, response, context);
			if (exchange != null) {
				client = this.silentReplies.wrap(exchange.request(), context.message(), response);
				exchange = decide(exchange.with(exchange.request(), client), completions);
			}
			if (exchange != null) {
				chain.doFilter(exchange.request(), exchange.response());
			}
		}
		catch (Throwable ex) {
			failure = ex;
		}
		failure = complete(completions, failure);
		try {
			if (failure != null) {
				answer(failure, request, client, context);
			}
		}
		finally {
			SilentReplies.finish(client);
			this.observer.finished(context);
			audit(McpAuditEvent.of(context, request.getMethod(), client.getStatus(), this.clock.instant(),
					this.clock.nanoTime() - context.startNanos(), this.observer.traceIds()));
		}
	}

	/**
	 * Runs the kept completions, innermost first; returns the failure that goes on
	 * outward ({@code null} when none, or when a completion answered it).
	 */
	private static @Nullable Throwable complete(Deque<Completion> completions, @Nullable Throwable failure) {
		Throwable outward = failure;
		for (Completion completion = completions.pollFirst(); completion != null; completion = completions
			.pollFirst()) {
			try {
				outward = completion.complete(outward);
			}
			catch (Throwable ex) {
				outward = ex;
			}
		}
		return outward;
	}

	/** The admitted exchange, or {@code null} when the request stage refused it. */
	private @Nullable McpExchange admit(HttpServletRequest request, HttpServletResponse response,
			McpRequestContext context) throws IOException {
		try {
			return new McpExchange(this.admission.admit(request, context), response, context);
		}
		catch (GatewayErrorException ex) {
			GatewayError error = ex.error();
			for (RequestRefusalCustomizer customizer : this.refusalCustomizers) {
				error = customizer.customize(request, error);
			}
			// A method or media type refused before the body was read.
			GatewayErrorRenderer.closeIfBodyUnread(request, response);
			this.refusals.refuse(context, response, error, null);
			return null;
		}
	}

	/**
	 * Asks every stage in order; returns the exchange the proxy gets, or {@code null}
	 * when a stage refused or answered.
	 */
	private @Nullable McpExchange decide(McpExchange admitted, Deque<Completion> completions) throws IOException {
		McpExchange exchange = admitted;
		PendingCharges charges = new PendingCharges();
		for (McpStage stage : this.stages) {
			if (!stage.appliesTo(exchange)) {
				continue;
			}
			StageDecision decision = decide(stage, exchange, charges);
			if (decision instanceof Refuse refuse) {
				this.refusals.refuse(exchange.context(), exchange.response(), refuse.error(), refuse.reason());
				return null;
			}
			if (decision == StageDecision.answered()) {
				exchange.context().allowed();
				return null;
			}
			if (decision instanceof Wrap wrap) {
				if (wrap.completion() != null) {
					completions.addFirst(wrap.completion());
				}
				exchange = exchange.with((wrap.request() != null) ? wrap.request() : exchange.request(),
						(wrap.response() != null) ? wrap.response() : exchange.response());
			}
		}
		// Every stage went on: the request runs, so what was left to charge is charged.
		Refuse uncharged = charges.charge();
		if (uncharged != null) {
			this.refusals.refuse(exchange.context(), exchange.response(), uncharged.error(), uncharged.reason());
			return null;
		}
		exchange.context().allowed();
		return exchange;
	}

	/**
	 * One stage's decision, with the request's charges settled (a deferred charge kept, a
	 * commit run), and the observer told before and after.
	 */
	private StageDecision decide(McpStage stage, McpExchange exchange, PendingCharges charges) throws IOException {
		PipelineObserver.StageObservation observation = this.observer.stage(stage, exchange.context());
		StageDecision decision = null;
		try {
			decision = charges.settle(stage.decide(exchange));
			return decision;
		}
		finally {
			observation.end(decision, exchange.context());
		}
	}

	/** Answers what nothing else answered, or throws it on once nothing can be. */
	private void answer(Throwable failure, HttpServletRequest request, HttpServletResponse response,
			McpRequestContext context) throws IOException, ServletException {
		if (failure instanceof GatewayErrorException ex) {
			this.refusals.refuse(context, response, ex.error(), null);
			return;
		}
		if (response.isCommitted()) {
			// Nothing can be rendered any more; let the container abandon the connection.
			rethrow(failure);
		}
		if (failure instanceof Error error) {
			throw error;
		}
		logger.error(
				"Unhandled failure on " + context.server().qualifiedName() + " (" + failure.getClass().getName() + ")");
		this.refusals.refuse(context, response, GatewayErrors.INTERNAL_ERROR, null);
	}

	private static void rethrow(Throwable failure) throws IOException, ServletException {
		if (failure instanceof IOException io) {
			throw io;
		}
		if (failure instanceof ServletException servlet) {
			throw servlet;
		}
		if (failure instanceof RuntimeException runtime) {
			throw runtime;
		}
		if (failure instanceof Error error) {
			throw error;
		}
		throw new ServletException(failure);
	}

	private static @Nullable McpPrincipal principal() {
		Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
		return (authentication instanceof McpAuthentication mcp) ? mcp.getPrincipal() : null;
	}

	private void audit(McpAuditEvent event) {
		for (McpAuditListener listener : this.auditListeners) {
			try {
				listener.onRequest(event);
			}
			catch (RuntimeException ex) {
				logger.warn("Audit listener " + listener.getClass().getName() + " failed: " + ex.getClass().getName());
			}
		}
	}

}
