package io.github.mcpgateway.admission;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HexFormat;

/**
 * The key the per-address cap counts a client under: an IPv4 address as it is, an IPv6
 * address by its /64 prefix. One IPv6 subscriber is usually given a whole /64 (RFC 6177),
 * so counting each of its 2^64 addresses apart would give one client as many budgets as
 * it likes; a /64 is what one client can be assumed to hold, as rate limiters commonly
 * do.
 */
final class ClientAddressKey {

	private static final HexFormat HEX = HexFormat.of();

	private ClientAddressKey() {
	}

	/**
	 * @param remoteAddress the connection's peer as the servlet container gives it (a
	 * numeric literal, never a name to look up)
	 */
	static String of(String remoteAddress) {
		if (remoteAddress.indexOf(':') < 0) {
			return remoteAddress;
		}
		try {
			// A literal: InetAddress parses it without a lookup.
			InetAddress address = InetAddress.getByName(remoteAddress);
			if (address instanceof Inet6Address) {
				byte[] bytes = address.getAddress();
				return HEX.formatHex(bytes, 0, 8) + "::/64";
			}
			return address.getHostAddress();
		}
		catch (UnknownHostException ex) {
			return remoteAddress;
		}
	}

}
