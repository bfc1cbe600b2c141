import { afterAll, beforeAll, beforeEach } from "vitest";
import { createStubLlmServer, type StubHandler, type StubLlmServer } from "./stub-llm-server";

export interface StubLlmFixture {
  /** The running server; reading it before the file's beforeAll has run throws. */
  readonly server: StubLlmServer;
  /** Answers every request; each test installs the reply it needs. */
  reply: StubHandler;
}

/**
 * One stub LLM server for the calling file (or `describe` block), closed after its last test;
 * `clearRequestsBeforeEach` starts every test with an empty `server.requests`.
 */
export function useStubLlmServer({ clearRequestsBeforeEach = false } = {}): StubLlmFixture {
  let server: StubLlmServer | undefined;
  const fixture: StubLlmFixture = {
    reply: () => ({ text: "unset" }),
    get server() {
      if (!server) throw new Error("the stub server is not started yet");
      return server;
    },
  };
  beforeAll(async () => {
    server = await createStubLlmServer((request) => fixture.reply(request));
  });
  afterAll(() => server?.close());
  if (clearRequestsBeforeEach)
    beforeEach(() => {
      fixture.server.requests.length = 0;
    });
  return fixture;
}
