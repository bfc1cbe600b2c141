import { describe, expect, it } from "vitest";
import { ask, PEER_KINDS, remoteTask, until, withTestPeer } from "../testing/a2a-test-helpers";
import type { TestPeer } from "../testing/a2a-test-peer";
import type { Request } from "../types";

// When the other agent asks something itself (input-required, auth-required): declined by
// default, a nested question for the host's own waitFor, or a wait for the peer's own people.

describe.each(PEER_KINDS)("createA2AWaitFor against $name", ({ streaming }) => {
  let peer: TestPeer;
  const waitFor = withTestPeer(streaming, (started) => {
    peer = started;
  });

  it("declines by default when the peer asks for input, with its question as the message", async () => {
    const request = ask("ask");
    expect(await waitFor()(request)).toEqual({
      id: request.id,
      ok: false,
      reason: "declined",
      data: { state: "input-required", message: "Which region?" },
    });
  });

  it("asks the host's own waitFor when given one, and sends its answer to the peer's task", async () => {
    const asked: Request[] = [];
    const request = ask("ask");
    const answer = await waitFor({
      onInputRequired: async (question) => {
        asked.push(question);
        return { id: question.id, ok: true, data: { region: "eu" } };
      },
    })(request);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      kind: "input",
      prompt: "Which region?",
      data: { schema: { type: "object" } },
    });
    expect(answer).toEqual({
      id: request.id,
      ok: true,
      data: { answered: { ok: true, data: { region: "eu" } } },
    });
  });

  it("ends the host's nested wait at the deadline too", async () => {
    const request = ask("ask");
    const never = () => new Promise<never>(() => {});
    expect(await waitFor({ onInputRequired: never, timeoutMs: 300 })(request)).toMatchObject({
      ok: false,
      reason: "expired",
    });
  });

  it("keeps waiting with onInputRequired 'wait' while the peer's own people answer", async () => {
    const request = ask("ask");
    const waiting = waitFor({ onInputRequired: "wait" })(request);
    await until(() => (peer.received.at(-1)?.data as Request | undefined)?.id === request.id);
    const { client, task } = await remoteTask(peer);
    await until(async () => (await client.getTask({ tenant: "", id: task.id })).status?.state === 6);
    const reply = {
      messageId: crypto.randomUUID(),
      contextId: task.contextId,
      taskId: task.id,
      role: 1,
      parts: [
        {
          content: { $case: "data" as const, value: { answer: { ok: true } } },
          metadata: undefined,
          filename: "",
          mediaType: "",
        },
      ],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    };
    await client.sendMessage({ tenant: "", message: reply, configuration: undefined, metadata: undefined });
    expect(await waiting).toEqual({ id: request.id, ok: true, data: { answered: { ok: true } } });
  });

  it("hands a sign-in the peer asks for to the host's waitFor as an authorization request", async () => {
    const request = ask("auth");
    expect(await waitFor()(request)).toMatchObject({
      ok: false,
      reason: "declined",
      data: { state: "auth-required", message: "Sign in to the registry" },
    });
    const asked: Request[] = [];
    await waitFor({
      timeoutMs: 300,
      onInputRequired: async (question) => {
        asked.push(question);
        return { id: question.id, ok: false, reason: "declined" };
      },
    })(ask("auth"));
    expect(asked[0]).toMatchObject({
      kind: "authorization",
      prompt: "Sign in to the registry",
      url: "https://idp.test/authorize",
    });
  });
});
