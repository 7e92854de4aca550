package io.github.mcpgateway.stdio;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

import io.github.mcpgateway.policy.StdioUpstream;

/**
 * The child processes of stdio servers ({@code gateway.stdio.*}); each server's own
 * command, caps and timeouts are in the policy file ({@code stdio}).
 *
 * @param maxProcesses the most processes of all stdio servers this replica runs at once;
 * a new session past it is refused with {@code stdio_process_capacity}
 * @param maxMessageSize the longest line a process may write to stdout (one message); a
 * longer one ends the process and its session
 * @param stopGrace how long a process has to exit after its stdin is closed, and again
 * after SIGTERM, before it and its descendants are killed
 * @param ulimit the resource limits of every stdio server's processes, each one a
 * server's {@code stdio.ulimit} does not set itself; set through {@code prlimit}
 * (util-linux), which must then be on the gateway's {@code PATH}
 */
@Validated
@ConfigurationProperties(prefix = "gateway.stdio", ignoreUnknownFields = false)
public record StdioProperties(@DefaultValue("64") @Min(1) int maxProcesses,
		@DefaultValue("4MB") @NotNull DataSize maxMessageSize, @DefaultValue("5s") @NotNull Duration stopGrace,
		@DefaultValue @NotNull StdioUpstream.Ulimit ulimit) {

	public StdioProperties {
		if (maxMessageSize != null
				&& (maxMessageSize.toBytes() < 1 || maxMessageSize.toBytes() > Integer.MAX_VALUE - 8)) {
			throw new IllegalArgumentException("gateway.stdio.max-message-size must be between 1B and 2GB");
		}
		if (stopGrace != null && stopGrace.isNegative()) {
			throw new IllegalArgumentException("gateway.stdio.stop-grace must not be negative");
		}
	}

	StdioLimits limits() {
		return new StdioLimits((int) this.maxMessageSize.toBytes(), StdioLimits.DEFAULT_MAX_STDERR_LINE_BYTES,
				StdioLimits.DEFAULT_MAX_STDERR_LINES, this.stopGrace);
	}

}
