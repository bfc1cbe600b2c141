import { TaskState } from "@a2a-js/sdk";
import { ClientFactory } from "@a2a-js/sdk/client";
import type { Request } from "../types";
import type { PeerBehaviour, TestPeer } from "./a2a-test-peer";

// What the createA2AWaitFor tests share: a request for the test peer, and a view of its tasks.

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
