import { describe, expect, it } from "vitest";
import { supersededRanges } from "@/lib/domain/superseded-events";
import { buildThreadMessages } from "./build-thread-messages";
import { RunChunkTranslator } from "./run-chunk-translator";
import { eventLog } from "./thread-events.fixture";

// A run taken over from a process that died mid-answer: seqs 3–5 are what the dead segment
// wrote past its last safe point (seq 2), the marker at 6 voids them, and the new owner streams
// the whole answer again.
const takenOver = eventLog("t1", [
  { runId: "r1", type: "user_message", content: "hello" },
  { runId: "r1", type: "run_status", status: "running" },
  { runId: "r1", type: "text", delta: "Hel" },
  { runId: "r1", type: "text", delta: "lo th" },
  { runId: "r1", type: "tool_call", toolCallId: "dead-call", name: "count", args: {} },
  { runId: "r1", type: "superseded", afterSeq: 2 },
  { runId: "r1", type: "text", delta: "Hello there." },
  { runId: "r1", type: "usage", usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 } },
  { runId: "r1", type: "run_finished", status: "done", text: "Hello there." },
]);

describe("replaying a run that changed hands", () => {
  it("shows the answer once and no card of the dead segment", async () => {
    const [user, assistant] = await buildThreadMessages(takenOver);
    expect(user).toMatchObject({ role: "user" });
    const texts = assistant!.parts.filter((part) => part.type === "text").map((part) => part.text);
    expect(texts).toEqual(["Hello there."]);
    expect(assistant!.parts.some((part) => part.type === "data-tool")).toBe(false);
  });

  it("skips the voided events when the markers are known before the replay", () => {
    const translator = new RunChunkTranslator("r1", supersededRanges(takenOver));
    const chunks = takenOver.flatMap((event) => translator.push(event));
    const deltas = chunks.flatMap((chunk) => (chunk.type === "text-delta" ? [chunk.delta] : []));
    expect(deltas).toEqual(["Hello there."]);
    expect(translator.stale).toBe(false);
  });

  it("asks a live viewer who saw the voided events to replay", () => {
    const translator = new RunChunkTranslator("r1");
    for (const event of takenOver.slice(0, 5)) translator.push(event);
    expect(translator.stale).toBe(false);
    expect(translator.push(takenOver[5]!)).toEqual([]);
    expect(translator.stale).toBe(true);
  });

  it("lets a live viewer who saw none of them go on", () => {
    const translator = new RunChunkTranslator("r1");
    for (const event of takenOver.slice(0, 2)) translator.push(event);
    translator.push(takenOver[5]!);
    expect(translator.stale).toBe(false);
  });
});
