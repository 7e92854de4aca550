package io.github.mcpgateway.policy.condition;

import java.util.Locale;

/**
 * What evaluating a condition gave. Only {@link #TRUE} allows; every evaluation error
 * counts as false, never as an allow.
 */
public enum ConditionResult {

	/** The expression is true: the grant allows the request. */
	TRUE,

	/** The expression is false. */
	FALSE,

	/**
	 * The expression read a field the request does not have ({@code arguments.amount}
	 * when the call sends no {@code amount}).
	 */
	MISSING_FIELD,

	/**
	 * An operator or function met a value of another type
	 * ({@code arguments.amount < 1000} when the call sends {@code "999"}).
	 */
	WRONG_TYPE,

	/**
	 * The expression gave a value that is not a boolean ({@code arguments.flag} when the
	 * call sends {@code "yes"}).
	 */
	NOT_BOOLEAN,

	/**
	 * The evaluation ran out of its step, allocation or time budget
	 * ({@link ConditionLimits}).
	 */
	BUDGET_EXCEEDED,

	/** Any other evaluation error (a division by zero, an index out of range, ...). */
	FAILED;

	public boolean allows() {
		return this == TRUE;
	}

	/** Whether the result is an evaluation error (counted, and taken as false). */
	public boolean isError() {
		return this != TRUE && this != FALSE;
	}

	/** The name in metrics, explain and validate: {@code missing_field}, ... */
	public String label() {
		return name().toLowerCase(Locale.ROOT);
	}

}
