import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "./logger";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger({ stream, level: "info" }) };
}

describe("the JSON logger", () => {
  it("writes one JSON object per line with level, time and the ids it is given", () => {
    const { lines, logger } = capture();
    logger.info({ requestId: "req-1", runId: "run-1", pendingId: "pnd-1" }, "run parked");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: "info",
      msg: "run parked",
      app: "toolnexus",
      requestId: "req-1",
      runId: "run-1",
      pendingId: "pnd-1",
    });
    expect(new Date(lines[0]!.time as string).toISOString()).toBe(lines[0]!.time);
  });

  it("never writes credentials, tokens, prompts or answers, top-level or nested", () => {
    const { lines, logger } = capture();
    logger.info(
      {
        password: "hunter2",
        token: "tok-secret",
        prompt: "Deploy with key sk-live-123?",
        headers: { cookie: "authjs.session-token=abc", authorization: "Bearer xyz" },
        request: { prompt: "the full prompt", answer: { data: { card: "4111" } } },
        connection: { accessToken: "at-1", refreshToken: "rt-1" },
        runId: "run-2",
      },
      "something happened",
    );
    const written = JSON.stringify(lines[0]);
    for (const secret of [
      "hunter2",
      "tok-secret",
      "sk-live-123",
      "abc",
      "xyz",
      "the full prompt",
      "4111",
      "at-1",
      "rt-1",
    ]) {
      expect(written).not.toContain(secret);
    }
    expect(lines[0]).toMatchObject({ runId: "run-2", password: "[redacted]" });
  });

  it("keeps an error's type and code and shortens its message, without the stack at info", () => {
    const { lines, logger } = capture();
    const error = Object.assign(new Error(`provider said: ${"x".repeat(1_000)}`), { code: "E_PROVIDER" });
    logger.error({ err: error, runId: "run-3" }, "run failed");
    const err = lines[0]!.err as Record<string, unknown>;
    expect(err).toMatchObject({ type: "Error", code: "E_PROVIDER" });
    expect((err.message as string).length).toBeLessThanOrEqual(301);
    expect(err.stack).toBeUndefined();
  });

  it("writes nothing below its level", () => {
    const { lines, logger } = capture();
    logger.debug({ runId: "run-4" }, "detail");
    expect(lines).toEqual([]);
  });
});
