import pino, { type DestinationStream, type Logger } from "pino";

// One JSON line per event on stdout, for whatever collects the process's output. Records name
// what they are about by id (requestId for an HTTP request, runId, pendingId for a parked
// request, threadId, userId) and never carry what people or the model wrote: prompts, answers,
// messages and credentials stay out at every level, and any field with such a name is
// replaced, should one slip into an object that gets logged.

const REDACTED_KEYS = [
  "password",
  "passwordHash",
  "token",
  "accessToken",
  "refreshToken",
  "idToken",
  "apiKey",
  "secret",
  "clientSecret",
  "authorization",
  "cookie",
  "prompt",
  "message",
  "messages",
  "answer",
  "reason",
  "text",
];

const REDACT_PATHS = [...REDACTED_KEYS, ...REDACTED_KEYS.map((key) => `*.${key}`)].filter(
  // An error's own message is how it is recognised; it is shortened below instead.
  (path) => path !== "*.message" && path !== "message",
);

const MAX_ERROR_MESSAGE = 300;

/**
 * Errors keep their type, code and a shortened message; stacks only at debug. A provider's
 * error can quote what it was sent, which is why the message is cut and causes are not walked.
 */
function serializeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error };
  const code = (error as { code?: unknown }).code;
  return {
    type: error.name,
    message:
      error.message.length > MAX_ERROR_MESSAGE
        ? `${error.message.slice(0, MAX_ERROR_MESSAGE)}…`
        : error.message,
    ...(typeof code === "string" || typeof code === "number" ? { code } : {}),
    ...(process.env.LOG_LEVEL === "debug" || process.env.LOG_LEVEL === "trace" ? { stack: error.stack } : {}),
  };
}

function defaultLevel(): string {
  if (process.env.LOG_LEVEL) return process.env.LOG_LEVEL;
  // Test runs assert on behaviour, not on log lines; a test that wants them passes a stream.
  return process.env.VITEST ? "silent" : "info";
}

export function createLogger({ stream, level }: { stream?: DestinationStream; level?: string } = {}): Logger {
  return pino(
    {
      level: level ?? defaultLevel(),
      base: { app: "toolnexus", pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      serializers: { err: serializeError, error: serializeError },
    },
    stream,
  );
}

/** The process's logger (LOG_LEVEL, default info). */
export const logger: Logger = createLogger();
