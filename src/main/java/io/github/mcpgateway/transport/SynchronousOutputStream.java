package io.github.mcpgateway.transport;

import java.io.IOException;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;

/**
 * A servlet output stream the proxy writes synchronously (Spring Cloud Gateway's MVC
 * proxy never uses non-blocking I/O): subclasses implement the bulk
 * {@link #write(byte[], int, int)}; single bytes go through it.
 */
public abstract class SynchronousOutputStream extends ServletOutputStream {

	@Override
	public void write(int b) throws IOException {
		write(new byte[] { (byte) b }, 0, 1);
	}

	@Override
	public abstract void write(byte[] buffer, int offset, int length) throws IOException;

	@Override
	public boolean isReady() {
		return true;
	}

	@Override
	public void setWriteListener(WriteListener listener) {
		throw new UnsupportedOperationException("The proxy writes synchronously");
	}

}
