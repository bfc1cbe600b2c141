import { describe, expect, it } from "vitest";
import { createClientFromDriver } from "../client-from-driver";
import { defineTool } from "../define-tool";
import { pending } from "../pending";
import { withTestPeer } from "../testing/a2a-test-helpers";
import type { TestPeer } from "../testing/a2a-test-peer";
import { createScriptedDriver } from "../testing/scripted-driver";
import { createToolkit } from "../toolkit";
import type { Checkpoint, Context } from "../types";

// An asking process that dies while the other agent works finds the same remote task when a new
// process resumes its checkpoint: the peer is asked once, and the tool gets the peer's answer.

async function deployToolkit(seen: Array<Context["answer"]>) {
  const deploy = defineTool({
    name: "deploy",
    description: "Deploy after the other agent approves",
    run: (_args, ctx) => {
      if (!ctx?.answer) return pending({ kind: "approval", prompt: "Deploy web?", data: { peer: "hold" } });
      seen.push(ctx.answer);
      return "deployed";
    },
  });
  return createToolkit({ builtins: false, extraTools: [deploy] });
}

const script = () =>
  createScriptedDriver((input) =>
    input.messages.some((message) => message.role === "tool" && !message.isError)
      ? { text: "all done" }
      : { toolCalls: [{ id: "call-1", name: "deploy" }] },
  );

describe.each([{ streaming: true }, { streaming: false }])(
  "an asking process restarts (streaming: $streaming)",
  ({ streaming }) => {
    let peer: TestPeer;
    const waitFor = withTestPeer(streaming, (started) => {
      peer = started;
    });

    it("finds the remote task again instead of sending a second one", async () => {
      const seen: Array<Context["answer"]> = [];
      const toolkit = await deployToolkit(seen);
      let checkpoint: Checkpoint | undefined;

      // The first process: it asks, then dies while the peer still works on the task.
      const dies = new AbortController();
      const first = createClientFromDriver(script(), {
        waitFor: waitFor({ signal: dies.signal }),
      });
      const running = first.run("deploy web", {
        toolkit,
        onCheckpoint: (saved) => {
          checkpoint = structuredClone(saved);
        },
      });
      while (peer.started === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      dies.abort();
      await expect(running).rejects.toThrow();
      expect(checkpoint?.slots[0]?.state.status).toBe("suspended");

      // The second process: a new client and a new waitFor resume the stored checkpoint.
      const second = createClientFromDriver(script(), {
        waitFor: waitFor(),
      });
      const resumed = second.resume(JSON.parse(JSON.stringify(checkpoint)) as Checkpoint, [], { toolkit });
      await new Promise((resolve) => setTimeout(resolve, 200));
      peer.release();
      const result = await resumed;

      expect(peer.started).toBe(1);
      expect(result.status).toBe("done");
      expect(result.text).toBe("all done");
      const parked = checkpoint!.slots[0]!.state;
      const id = parked.status === "suspended" ? parked.request.id : "";
      expect(seen).toEqual([{ id, ok: true, data: { released: true } }]);
    });
  },
);
