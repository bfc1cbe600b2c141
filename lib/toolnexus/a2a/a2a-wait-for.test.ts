// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} in a header is expanded by the library, not a template.
import { TaskState } from "@a2a-js/sdk";
import { ClientFactory } from "@a2a-js/sdk/client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { isToolnexusError } from "../errors";
import { type PeerBehaviour, startTestPeer, type TestPeer } from "../testing/a2a-test-peer";
import type { Request } from "../types";
import { createA2AWaitFor } from "./a2a-wait-for";

// Each case runs against a real A2A agent built from the SDK's server pieces, over real HTTP:
// once on a peer that streams and once on one that does not (the waitFor polls it).

const ask = (peer: PeerBehaviour, extra: Partial<Request> = {}): Request => ({
  id: `deploy-${peer}-${Math.random().toString(36).slice(2)}`,
  kind: "approval",
  prompt: "Deploy web to production?",
  data: { peer, service: "web" },
  ...extra,
});

/** Another A2A client, standing in for the peer's own people or operators. */
async function operator(peer: TestPeer) {
  return new ClientFactory().createFromUrl(peer.url);
}

async function remoteTask(peer: TestPeer) {
  const client = await operator(peer);
  const found = await client.listTasks({
    tenant: "",
    contextId: peer.received.at(-1)!.contextId,
    status: TaskState.TASK_STATE_UNSPECIFIED,
    pageToken: "",
    statusTimestampAfter: undefined,
  });
  return { client, task: found.tasks[0]! };
}

async function until(check: () => boolean | Promise<boolean>, ms = 5000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each([
  { streaming: true, name: "a streaming peer" },
  { streaming: false, name: "a polling peer" },
])("createA2AWaitFor against $name", ({ streaming }) => {
  let peer: TestPeer;
  beforeAll(async () => {
    peer = await startTestPeer({ streaming });
  });
  afterAll(() => peer.close());
  afterEach(() => {
    delete process.env.A2A_TEST_TOKEN;
  });
  const waitFor = (options: Parameters<typeof createA2AWaitFor>[0] = {}) =>
    createA2AWaitFor({ agentCardUrl: peer.cardUrl, pollEveryMs: 25, ...options });

  it("sends the prompt as text and the Request as data, and a completed task's data part is the answer", async () => {
    process.env.A2A_TEST_TOKEN = "s3cret-token";
    const request = ask("data");
    const answer = await waitFor({ headers: { Authorization: "Bearer ${A2A_TEST_TOKEN}" } })(request);
    expect(answer).toEqual({ id: request.id, ok: true, data: { approved: true, by: "peer" } });
    expect(peer.received.at(-1)).toMatchObject({ text: "Deploy web to production?", data: request });
    expect(peer.authorizations.at(-1)).toBe("Bearer s3cret-token");
  });

  it("answers a completed task without a data part with its text", async () => {
    const request = ask("text");
    expect(await waitFor()(request)).toEqual({
      id: request.id,
      ok: true,
      data: { text: "approved by the peer" },
    });
  });

  it("declines for a rejected or a failed task, with what the peer said", async () => {
    const rejected = ask("reject");
    expect(await waitFor()(rejected)).toEqual({
      id: rejected.id,
      ok: false,
      reason: "declined",
      data: { state: "rejected", message: "not today" },
    });
    const failed = ask("fail");
    expect(await waitFor()(failed)).toMatchObject({
      ok: false,
      reason: "declined",
      data: { state: "failed", message: "the disk is full" },
    });
  });

  it("answers cancelled when the remote task is canceled while it waits", async () => {
    const request = ask("hold");
    const waiting = waitFor()(request);
    await until(
      () =>
        peer.received.at(-1)?.data !== undefined && (peer.received.at(-1)!.data as Request).id === request.id,
    );
    const { client, task } = await remoteTask(peer);
    await client.cancelTask({ tenant: "", id: task.id, metadata: undefined });
    expect(await waiting).toMatchObject({ id: request.id, ok: false, reason: "cancelled" });
  });

  it("answers expired after timeoutMs, and cancels the remote task", async () => {
    const request = ask("hold");
    const answer = await waitFor({ timeoutMs: 400 })(request);
    expect(answer).toEqual({ id: request.id, ok: false, reason: "expired" });
    const { task } = await remoteTask(peer);
    expect(task.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it("answers expired at the request's own expiresAt", async () => {
    const request = ask("hold", { expiresAt: new Date(Date.now() + 300).toISOString() });
    expect(await waitFor()(request)).toMatchObject({ ok: false, reason: "expired" });
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

  it("takes a reply that is a message, with no task, as the answer", async () => {
    const request = ask("message");
    expect(await waitFor()(request)).toEqual({ id: request.id, ok: true, data: { text: "fine by me" } });
  });

  it("sends every request, the card's included, through the host's fetch", async () => {
    const seen: string[] = [];
    const guarded: typeof fetch = (input, init) => {
      seen.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
      return fetch(input, init);
    };
    await waitFor({ fetch: guarded })(ask("data"));
    expect(seen[0]).toBe("/.well-known/agent-card.json");
    expect(seen.slice(1).every((path) => path === "/a2a")).toBe(true);
    expect(seen.length).toBeGreaterThan(1);

    const refusing: typeof fetch = async () => {
      throw new Error("refused by the outbound-address policy");
    };
    const before = peer.started;
    const error = await waitFor({ fetch: refusing })(ask("data")).catch((e: unknown) => e);
    expect(String((error as Error).message)).toMatch(/refused by the outbound-address policy/);
    expect(peer.started).toBe(before);
  });

  it("keeps following its task through a few failed reads, without sending it again", async () => {
    let failedReads = 0;
    const flaky: typeof fetch = (input, init) => {
      // The first three reads of the task fail as if the peer were restarting.
      if (/"method":"GetTask"/.test(String(init?.body)) && failedReads < 3) {
        failedReads += 1;
        return Promise.reject(new TypeError("fetch failed"));
      }
      return fetch(input, init);
    };
    const before = peer.started;
    const request = ask("hold");
    const waiting = waitFor({ fetch: flaky, backoff: { firstMs: 10, maxMs: 20, jitter: [1, 1] } })(request);
    await until(() => peer.started === before + 1);
    peer.release();
    expect(await waiting).toEqual({ id: request.id, ok: true, data: { released: true } });
    expect(failedReads).toBe(3);
    expect(peer.started).toBe(before + 1);
  });

  it("rejects with a ToolnexusError that never carries the headers when the peer cannot be reached", async () => {
    process.env.A2A_TEST_TOKEN = "s3cret-token";
    const closed = await startTestPeer({ streaming });
    await closed.close();
    const error = await createA2AWaitFor({
      agentCardUrl: closed.cardUrl,
      headers: { Authorization: "Bearer ${A2A_TEST_TOKEN}" },
    })(ask("data")).catch((e: unknown) => e);
    expect(isToolnexusError(error, "provider:http")).toBe(true);
    expect(
      JSON.stringify({ message: (error as Error).message, cause: String((error as Error).cause) }),
    ).not.toContain("s3cret");
  });
});

describe("createA2AWaitFor's options", () => {
  it("refuses to be made without an agent card or its URL", () => {
    expect(() => createA2AWaitFor({})).toThrow(/agentCardUrl or an agentCard/);
    expect(() => createA2AWaitFor({ agentCardUrl: "not a url" })).toThrow();
  });
});
