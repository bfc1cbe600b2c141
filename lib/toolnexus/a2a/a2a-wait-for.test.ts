// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} in a header is expanded by the library, not a template.
import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { isToolnexusError } from "../errors";
import { ask, PEER_KINDS, remoteTask, until, withTestPeer } from "../testing/a2a-test-helpers";
import { startTestPeer, type TestPeer } from "../testing/a2a-test-peer";
import type { Request } from "../types";
import { createA2AWaitFor } from "./a2a-wait-for";

// Each case runs against a real A2A agent built from the SDK's server pieces, over real HTTP:
// once on a peer that streams and once on one that does not (the waitFor polls it).

describe.each(PEER_KINDS)("createA2AWaitFor against $name", ({ streaming }) => {
  let peer: TestPeer;
  const waitFor = withTestPeer(streaming, (started) => {
    peer = started;
  });

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

  it("waits past a timer's limit when the deadline is weeks away", async () => {
    const request = ask("data", { expiresAt: new Date(Date.now() + 40 * 86_400_000).toISOString() });
    expect(await waitFor({ timeoutMs: 60 * 86_400_000 })(request)).toMatchObject({ ok: true });
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

  it("takes a reply that is a message, with no task, as the answer", async () => {
    const request = ask("message");
    expect(await waitFor()(request)).toEqual({ id: request.id, ok: true, data: { text: "fine by me" } });
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
