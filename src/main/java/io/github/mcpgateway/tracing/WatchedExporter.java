package io.github.mcpgateway.tracing;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Collection;

import io.opentelemetry.sdk.common.CompletableResultCode;
import org.jspecify.annotations.Nullable;

/**
 * An OpenTelemetry exporter (a {@code SpanExporter} or a {@code LogRecordExporter}) whose
 * export results an {@link ExportFailureLog} watches: {@code export(Collection)} goes to
 * the exporter and its result to the log; every other method ({@code flush},
 * {@code shutdown}, {@code close}, {@code toString}) goes to the exporter as it is.
 *
 * <p>
 * A JDK proxy of the exporter's interface, not a class per interface: the two interfaces
 * share no supertype that declares {@code export}, so a wrapper class each repeated every
 * delegating method word for word. The proxy also implements this interface, by which a
 * watched exporter is known and not wrapped twice.
 */
interface WatchedExporter {

	/** {@code exporter} as {@code type}, its exports watched by {@code log}. */
	static <E> E watch(Class<E> type, E exporter, ExportFailureLog log) {
		InvocationHandler handler = (proxy, method, args) -> {
			if (method.getDeclaringClass() == Object.class) {
				return objectMethod(proxy, method, args, exporter);
			}
			Object result = invoke(method, exporter, args);
			if (method.getName().equals("export") && args != null && args.length == 1
					&& args[0] instanceof Collection<?> batch && result instanceof CompletableResultCode exported) {
				return log.watch(exported, batch.size());
			}
			return result;
		};
		return type.cast(Proxy.newProxyInstance(WatchedExporter.class.getClassLoader(),
				new Class<?>[] { type, WatchedExporter.class }, handler));
	}

	private static Object objectMethod(Object proxy, Method method, @Nullable Object @Nullable [] args,
			Object exporter) {
		return switch (method.getName()) {
			case "equals" -> args != null && proxy == args[0];
			case "hashCode" -> System.identityHashCode(proxy);
			default -> "WatchedExporter{" + exporter + "}";
		};
	}

	private static @Nullable Object invoke(Method method, Object target, @Nullable Object @Nullable [] args)
			throws Throwable {
		try {
			return method.invoke(target, args);
		}
		catch (InvocationTargetException ex) {
			throw ex.getCause();
		}
	}

}
