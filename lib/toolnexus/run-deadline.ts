import { ToolnexusError } from "./errors";

/**
 * The signal a run goes by: the caller's, cut short at the run's deadline when the client has
 * one (`timeoutMs`, for the whole run or resume). A bad deadline throws when the client is made.
 */
export function runDeadline(
  timeoutMs: number | undefined,
): (signal: AbortSignal | undefined) => AbortSignal | undefined {
  if (timeoutMs === undefined) return (signal) => signal;
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0 && timeoutMs <= 2_147_483_647)) {
    throw new ToolnexusError(
      "config:invalid",
      "timeoutMs must be a positive number of milliseconds below 2^31",
    );
  }
  return (signal) => {
    const deadline = AbortSignal.timeout(timeoutMs);
    return signal ? AbortSignal.any([signal, deadline]) : deadline;
  };
}
