// The report every client script prints: ONE JSON line on stdout that its Java test asserts on.
// out.failures lists every check that did not hold; out.ok is true when there is none. A watchdog
// ends the script with exit code 2 (and the report) if it has not finished within timeoutMs.
export function startReport(out, timeoutMs) {
  const fail = (message) => {
    out.failures.push(message);
    console.error('FAIL: ' + message);
  };
  const check = (condition, message) => {
    if (!condition) fail(message);
    return condition;
  };
  const write = (exitCode) => {
    out.ok = out.failures.length === 0;
    process.stdout.write(JSON.stringify(out) + '\n', () => process.exit(exitCode));
  };
  const watchdog = setTimeout(() => {
    fail(`watchdog: no completion within ${timeoutMs} ms`);
    write(2);
  }, timeoutMs);
  // Ends the script: exit code 0 when every check held, 1 otherwise.
  const finish = () => {
    clearTimeout(watchdog);
    write(out.failures.length === 0 ? 0 : 1);
  };
  return { fail, check, finish };
}
