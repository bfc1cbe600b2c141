// `npm start` (server.mjs) is the only supported production entry: it alone drains on SIGTERM,
// serves the live streams beside Next and decides which forwarded headers to believe
// (docs/deploy.md). `next start` runs the same app without any of that and nothing else would
// tell an operator, so server.mjs marks the process and a production start without the mark
// says so in the log.

export const PRODUCTION_ENTRY_MARK = "TOOLNEXUS_PRODUCTION_ENTRY";

/** Why this process's start deserves a warning, or null when it was started as documented. */
export function productionEntryWarning(env: Record<string, string | undefined>): string | null {
  if (env.NODE_ENV !== "production") return null;
  if (env[PRODUCTION_ENTRY_MARK] === "1") return null;
  return "not started by the production entry: run `npm start` (node server.mjs); under `next start` nothing drains on SIGTERM, live streams go through Next and forwarded headers are believed from anyone";
}
