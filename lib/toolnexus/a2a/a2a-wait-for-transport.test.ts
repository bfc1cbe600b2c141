import { describe, expect, it } from "vitest";
import { ask, PEER_KINDS, until, withTestPeer } from "../testing/a2a-test-helpers";
import type { TestPeer } from "../testing/a2a-test-peer";

// How the waitFor reaches the other agent: through the host's fetch, and on through failures.

describe.each(PEER_KINDS)("createA2AWaitFor against $name", ({ streaming }) => {
  let peer: TestPeer;
  const waitFor = withTestPeer(streaming, (started) => {
    peer = started;
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

  it("sends the task when the peer cannot list tasks (as an A2A 0.3 peer), and still gets the answer", async () => {
    const noList: typeof fetch = async (input, init) => {
      const body = String(init?.body ?? "");
      if (!/"method":"ListTasks"/.test(body)) return fetch(input, init);
      const { id } = JSON.parse(body) as { id: unknown };
      return Response.json({ jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } });
    };
    const before = peer.started;
    const request = ask("data");
    expect(await waitFor({ fetch: noList })(request)).toMatchObject({ ok: true, data: { approved: true } });
    expect(peer.started).toBe(before + 1);
  });
});
