package io.github.mcpgateway.support;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Certificate authorities and certificates made in the test, written as PKCS12 stores: a
 * CA, a server certificate for 127.0.0.1, and client certificates with chosen SAN URIs,
 * signed by that CA or by another one the gateway does not trust.
 */
public final class TestCertificates {

	public static final String PASSWORD = "changeit";

	private static final AtomicLong serial = new AtomicLong(System.currentTimeMillis());

	private final Path directory;

	private final Issued authority;

	private TestCertificates(Path directory, Issued authority) {
		this.directory = directory;
		this.authority = authority;
	}

	/** A new certificate authority, with its files in a new temporary directory. */
	public static TestCertificates authority(String name) {
		try {
			KeyPair keys = keyPair();
			X500Name subject = new X500Name("CN=" + name);
			X509Certificate certificate = sign(subject, keys, subject, keys.getPrivate(), true, null);
			return new TestCertificates(Files.createTempDirectory("mcp-gateway-pki"), new Issued(keys, certificate));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** A PKCS12 trust store holding this authority. */
	public Path trustStore() {
		return store("truststore.p12", (store) -> store.setCertificateEntry("ca", this.authority.certificate()));
	}

	/** A PKCS12 key store for the server: 127.0.0.1 and localhost. */
	public Path serverKeyStore() {
		Issued server = issue("CN=localhost", new GeneralName[] { new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
				new GeneralName(GeneralName.dNSName, "localhost") });
		return keyStore("server.p12", server);
	}

	/**
	 * An SSL context presenting a client certificate with {@code sanUri}, trusting
	 * {@code serverAuthority}.
	 */
	public SSLContext client(String sanUri, TestCertificates serverAuthority) {
		Issued client = issue("CN=adapter",
				new GeneralName[] { new GeneralName(GeneralName.uniformResourceIdentifier, sanUri) });
		return sslContext(keyStore("client-" + serial.incrementAndGet() + ".p12", client), serverAuthority);
	}

	/** An SSL context with no client certificate, trusting {@code serverAuthority}. */
	public static SSLContext anonymousClient(TestCertificates serverAuthority) {
		return sslContext(null, serverAuthority);
	}

	private Issued issue(String subject, GeneralName[] names) {
		KeyPair keys = keyPair();
		return new Issued(keys,
				sign(new X500Name(subject), keys,
						new X500Name(this.authority.certificate().getSubjectX500Principal().getName()),
						this.authority.keys().getPrivate(), false, new GeneralNames(names)));
	}

	private Path keyStore(String name, Issued issued) {
		return store(name, (store) -> store.setKeyEntry("key", issued.keys().getPrivate(), PASSWORD.toCharArray(),
				new Certificate[] { issued.certificate(), this.authority.certificate() }));
	}

	private static SSLContext sslContext(Path keyStore, TestCertificates trusted) {
		try {
			SSLContext context = SSLContext.getInstance("TLS");
			KeyManagerFactory keys = null;
			if (keyStore != null) {
				keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
				keys.init(load(keyStore), PASSWORD.toCharArray());
			}
			TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
			trust.init(load(trusted.trustStore()));
			context.init((keys != null) ? new KeyManager[] { alwaysPresent(keys) } : null, trust.getTrustManagers(),
					null);
			return context;
		}
		catch (GeneralSecurityException | IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Presents the client certificate whatever authorities the server asks for, as a
	 * misbehaving or hostile client would, so that the server's own trust check is what
	 * is tested.
	 */
	private static KeyManager alwaysPresent(KeyManagerFactory keys) {
		X509ExtendedKeyManager delegate = (X509ExtendedKeyManager) keys.getKeyManagers()[0];
		return new X509ExtendedKeyManager() {

			@Override
			public String[] getClientAliases(String keyType, Principal[] issuers) {
				return new String[] { "key" };
			}

			@Override
			public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
				return "key";
			}

			@Override
			public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
				return "key";
			}

			@Override
			public String[] getServerAliases(String keyType, Principal[] issuers) {
				return delegate.getServerAliases(keyType, issuers);
			}

			@Override
			public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
				return delegate.chooseServerAlias(keyType, issuers, socket);
			}

			@Override
			public X509Certificate[] getCertificateChain(String alias) {
				return delegate.getCertificateChain(alias);
			}

			@Override
			public PrivateKey getPrivateKey(String alias) {
				return delegate.getPrivateKey(alias);
			}

		};
	}

	private static KeyStore load(Path path) throws GeneralSecurityException, IOException {
		KeyStore store = KeyStore.getInstance("PKCS12");
		try (var in = Files.newInputStream(path)) {
			store.load(in, PASSWORD.toCharArray());
		}
		return store;
	}

	private Path store(String name, StoreWriter writer) {
		try {
			KeyStore store = KeyStore.getInstance("PKCS12");
			store.load(null, null);
			writer.write(store);
			Path path = this.directory.resolve(name);
			try (OutputStream out = Files.newOutputStream(path)) {
				store.store(out, PASSWORD.toCharArray());
			}
			return path;
		}
		catch (GeneralSecurityException | IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static X509Certificate sign(X500Name subject, KeyPair subjectKeys, X500Name issuer, PrivateKey issuerKey,
			boolean authority, GeneralNames names) {
		try {
			Instant now = Instant.now();
			JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(issuer,
					BigInteger.valueOf(serial.incrementAndGet()), Date.from(now.minus(Duration.ofHours(1))),
					Date.from(now.plus(Duration.ofDays(1))), subject, subjectKeys.getPublic());
			builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(authority));
			if (names != null) {
				builder.addExtension(Extension.subjectAlternativeName, false, names);
			}
			return new JcaX509CertificateConverter()
				.getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withRSA").build(issuerKey)));
		}
		catch (IOException | GeneralSecurityException | OperatorCreationException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static KeyPair keyPair() {
		try {
			KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
			generator.initialize(2048);
			return generator.generateKeyPair();
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private record Issued(KeyPair keys, X509Certificate certificate) {
	}

	@FunctionalInterface
	private interface StoreWriter {

		void write(KeyStore store) throws GeneralSecurityException;

	}

}
