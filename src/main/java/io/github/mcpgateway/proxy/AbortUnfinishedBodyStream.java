package io.github.mcpgateway.proxy;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

import org.apache.hc.core5.http.io.EofSensorInputStream;

/**
 * The upstream reply body as the proxy reads it, closed by dropping the connection when
 * the body was not read to its end.
 *
 * <p>
 * Apache HttpClient releases a connection by reading what is left of the body first, so
 * that the connection can be reused. For an event stream whose client went away (a GET
 * stream of a client that exited, a stream cut by the idle timeout), what is left may
 * never end: an upstream that sends keep-alives every 15 s kept a servlet thread and a
 * pooled connection busy for good, and held up graceful shutdown. So a body closed before
 * its end aborts the connection instead ({@link EofSensorInputStream#abort()}); a body
 * read to its end (every JSON reply, and a POST stream the gateway drains after its
 * client left) releases it for reuse as before.
 */
final class AbortUnfinishedBodyStream extends FilterInputStream {

	private boolean ended;

	AbortUnfinishedBodyStream(InputStream body) {
		super(body);
	}

	@Override
	public int read() throws IOException {
		int b = super.read();
		this.ended |= (b < 0);
		return b;
	}

	@Override
	public int read(byte[] buffer, int offset, int length) throws IOException {
		int n = super.read(buffer, offset, length);
		this.ended |= (n < 0);
		return n;
	}

	@Override
	public void close() throws IOException {
		if (!this.ended && this.in instanceof EofSensorInputStream sensor) {
			sensor.abort();
			return;
		}
		super.close();
	}

}
