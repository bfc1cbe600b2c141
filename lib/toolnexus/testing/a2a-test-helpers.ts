import { TaskState } from "@a2a-js/sdk";
import { ClientFactory } from "@a2a-js/sdk/client";
import { afterAll, afterEach, beforeAll } from "vitest";
import { createA2AWaitFor } from "../a2a/a2a-wait-for";
import type { Request } from "../types";
import { type PeerBehaviour, startTestPeer, type TestPeer } from "./a2a-test-peer";

// What the createA2AWaitFor tests share: a test peer of each kind, a waitFor pointed at it, a
// request for it, and a view of its tasks.

/** The two kinds of peer every case runs against: one that streams, one the waitFor polls. */
export const PEER_KINDS = [
  { streaming: true, name: "a streaming peer" },
  { streaming: false, name: "a polling peer" },
];

/**
 * Starts a test peer before the file's (or describe block's) tests and closes it after them;
 * `onReady` receives it. Returns a createA2AWaitFor pointed at it that polls quickly. The token
 * a case puts in A2A_TEST_TOKEN is removed after it, so no case sees another's.
 */
export function withTestPeer(streaming: boolean, onReady: (peer: TestPeer) => void) {
  let peer: TestPeer | undefined;
  beforeAll(async () => {
    peer = await startTestPeer({ streaming });
    onReady(peer);
  });
  afterAll(() => peer?.close());
  afterEach(() => {
    delete process.env.A2A_TEST_TOKEN;
  });
  return (options: Parameters<typeof createA2AWaitFor>[0] = {}) => {
    if (!peer) throw new Error("the test peer is not started: make the waitFor inside a test");
    return createA2AWaitFor({ agentCardUrl: peer.cardUrl, pollEveryMs: 25, ...options });
  };
}

export const ask = (peer: PeerBehaviour, extra: Partial<Request> = {}): Request => ({
  id: `deploy-${peer}-${Math.random().toString(36).slice(2)}`,
  kind: "approval",
  prompt: "Deploy web to production?",
  data: { peer, service: "web" },
  ...extra,
});

/** The last task the peer started, read by another A2A client (the peer's own people or operators). */
export async function remoteTask(peer: TestPeer) {
  const client = await new ClientFactory().createFromUrl(peer.url);
  const found = await client.listTasks({
    tenant: "",
    contextId: peer.received.at(-1)!.contextId,
    status: TaskState.TASK_STATE_UNSPECIFIED,
    pageToken: "",
    statusTimestampAfter: undefined,
  });
  return { client, task: found.tasks[0]! };
}

export async function until(check: () => boolean | Promise<boolean>, ms = 5000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
