package io.github.mcpgateway.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A client that sends a POST's head at once and its body one byte at a time, as a
 * slow-body attacker does: it declares {@code Content-Length} and then keeps every read
 * of the server short, from a thread of its own, until it has sent {@code sendFor} or is
 * closed. Reads what the server answers, with the time the answer ended.
 */
public final class SlowClient implements AutoCloseable {

	private final Socket socket;

	private final Thread dribbler;

	private SlowClient(Socket socket, Thread dribbler) {
		this.socket = socket;
		this.dribbler = dribbler;
	}

	/**
	 * Opens the connection, sends the head of a JSON POST to {@code path} declaring
	 * {@code declaredLength} bytes, then a byte every {@code interval} for up to
	 * {@code sendFor}.
	 * @param authorization the {@code Authorization} header value, or {@code null}
	 */
	public static SlowClient start(int port, String path, String authorization, int declaredLength, Duration interval,
			Duration sendFor) {
		StringBuilder head = new StringBuilder("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n");
		head.append("Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n");
		if (authorization != null) {
			head.append("Authorization: ").append(authorization).append("\r\n");
		}
		head.append("Content-Length: ").append(declaredLength).append("\r\n\r\n{");
		try {
			Socket socket = new Socket("127.0.0.1", port);
			socket.setSoTimeout(30_000);
			OutputStream out = socket.getOutputStream();
			out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
			out.flush();
			Thread dribbler = new Thread(() -> {
				long end = System.nanoTime() + sendFor.toNanos();
				try {
					for (int sent = 1; sent < declaredLength && System.nanoTime() < end; sent++) {
						Thread.sleep(interval.toMillis());
						out.write(' ');
						out.flush();
					}
				}
				catch (IOException | InterruptedException ex) {
					// The server closed the connection, or the test did.
				}
			}, "slow-client");
			dribbler.setDaemon(true);
			dribbler.start();
			return new SlowClient(socket, dribbler);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * What the server sent until it closed the connection, or until {@code wait} passed
	 * ({@link Answer#closed()} false then).
	 */
	public Answer answer(Duration wait) {
		ByteArrayOutputStream received = new ByteArrayOutputStream();
		long start = System.nanoTime();
		try {
			this.socket.setSoTimeout((int) wait.toMillis());
			InputStream in = this.socket.getInputStream();
			byte[] buffer = new byte[8192];
			for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
				received.write(buffer, 0, read);
			}
			return new Answer(received.toString(StandardCharsets.UTF_8), true,
					Duration.ofNanos(System.nanoTime() - start));
		}
		catch (SocketTimeoutException ex) {
			return new Answer(received.toString(StandardCharsets.UTF_8), false, wait);
		}
		catch (IOException ex) {
			// A reset after the answer: the connection is closed all the same.
			return new Answer(received.toString(StandardCharsets.UTF_8), true,
					Duration.ofNanos(System.nanoTime() - start));
		}
	}

	@Override
	public void close() {
		this.dribbler.interrupt();
		try {
			this.socket.close();
		}
		catch (IOException ex) {
			// Closed already.
		}
	}

	/**
	 * What the server sent.
	 *
	 * @param response the bytes, as text
	 * @param closed whether the server closed the connection within the wait
	 * @param after how long after the wait began the connection closed (the wait when it
	 * did not)
	 */
	public record Answer(String response, boolean closed, Duration after) {

		public int status() {
			return this.response.startsWith("HTTP/1.1 ") ? Integer.parseInt(this.response.substring(9, 12)) : -1;
		}

	}

}
