import { createHttpDriver, type HttpDriverOptions, type WireStyle } from "../drivers/http/http-driver";
import type { ModelDriver } from "../types";
import type { StubLlmServer } from "./stub-llm-server";

/** A driver for `server` that retries after a millisecond, so tests of failing calls stay quick. */
export function quickRetryDriver(
  server: StubLlmServer,
  style: WireStyle,
  extra: Partial<HttpDriverOptions> = {},
): ModelDriver {
  return createHttpDriver({
    baseUrl: server.baseUrl(style),
    style,
    model: "m",
    apiKey: "k",
    retryBaseMs: 1,
    ...extra,
  });
}
