// The MCP server's limits and timings, read from the environment on every call so a test (or
// an operator restarting with new values) changes them without code (ADR 0064).

function positiveInteger(name: string, fallback: number): number {
  const configured = Number(process.env[name] ?? "");
  return Number.isInteger(configured) && configured > 0 ? configured : fallback;
}

/** How many calls of one token may wait for an answer at once, on all instances together. */
export function maxWaitingPerToken(): number {
  return positiveInteger("TOOLNEXUS_MCP_MAX_WAITING", 50);
}

/**
 * How often a waiting call tells its client it is still waiting. Clients whose timeout resets on
 * progress (Claude Code, the SDK's `resetTimeoutOnProgress`) then wait as long as the request does.
 */
export function progressEveryMs(): number {
  return positiveInteger("TOOLNEXUS_MCP_PROGRESS_MS", 10_000);
}

/** When a request an agent makes expires unless it asks otherwise: then it is denied by default. */
export function defaultExpirySeconds(): number {
  return positiveInteger("TOOLNEXUS_MCP_EXPIRY_SECONDS", 15 * 60);
}

/** The longest `expires_in_seconds` an agent may ask for: a week. */
export const MAX_EXPIRY_SECONDS = 7 * 24 * 60 * 60;

/**
 * How long a waiting call's row counts towards its token's limit unless its instance renews it
 * (every third of this): an instance that died stops holding its calls' places within a minute.
 */
export const WAITING_LEASE_MS = 60_000;

/**
 * How often a waiting call re-reads its request although no notice said it changed: the bus
 * wakes it on an answer from any instance, so this only bounds how late a lost notice is noticed.
 */
export const REREAD_EVERY_MS = 60_000;
