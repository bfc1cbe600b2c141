import { createUIMessageStream, createUIMessageStreamResponse, type UIMessageChunk } from "ai";
import { describe, expect, it, vi } from "vitest";
import { uiMessageSseResponse } from "./ui-message-sse";

// The client is the AI SDK's `useChat` resuming a stream, so the bytes are pinned against the
// SDK's own writer: the same chunks through both must give the same response.

const chunks: UIMessageChunk[] = [
  { type: "start", messageId: "run-r1" },
  { type: "text-start", id: "t1" },
  { type: "text-delta", id: "t1", delta: 'Deploy "api" v2 → staging?\nline two \u2028 ✓' },
  { type: "text-end", id: "t1" },
  { type: "data-tool", id: "tool-1", data: { name: "deploy", state: "waiting", args: { env: "prod" } } },
  { type: "finish" },
];

function theSdks(execute: (write: (chunk: UIMessageChunk) => void) => Promise<void>, keepAliveMs: number) {
  const stream = createUIMessageStream({
    execute: ({ writer }) => execute((chunk) => writer.write(chunk)),
    onError: (error) => `failed: ${(error as Error).message}`,
  });
  return createUIMessageStreamResponse({ stream, keepAliveMs });
}

function ours(execute: (write: (chunk: UIMessageChunk) => void) => Promise<void>, keepAliveMs: number) {
  return uiMessageSseResponse<UIMessageChunk>({
    execute,
    onError: (error) => `failed: ${(error as Error).message}`,
    keepAliveMs,
  });
}

const text = (response: Response) => response.text();

describe("uiMessageSseResponse", () => {
  it("writes what the AI SDK writes for the same chunks, headers included", async () => {
    const execute = async (write: (chunk: UIMessageChunk) => void) => {
      for (const chunk of chunks) {
        write(chunk);
        await Promise.resolve();
      }
    };
    const expected = theSdks(execute, 60_000);
    const actual = ours(execute, 60_000);
    expect(Object.fromEntries(actual.headers)).toEqual(Object.fromEntries(expected.headers));
    expect(actual.status).toBe(200);
    const bytes = await text(actual);
    expect(bytes).toBe(await text(expected));
    expect(bytes.startsWith(': stream-open\n\ndata: {"type":"start","messageId":"run-r1"}\n\n')).toBe(true);
    expect(bytes.endsWith('data: {"type":"finish"}\n\ndata: [DONE]\n\n')).toBe(true);
  });

  it("ends a failed stream with the SDK's error chunk and [DONE]", async () => {
    const execute = async (write: (chunk: UIMessageChunk) => void) => {
      write(chunks[0]!);
      await Promise.resolve();
      throw new Error("lost the database");
    };
    const bytes = await text(ours(execute, 60_000));
    expect(bytes).toBe(await text(theSdks(execute, 60_000)));
    expect(bytes).toBe(
      ': stream-open\n\ndata: {"type":"start","messageId":"run-r1"}\n\n' +
        'data: {"type":"error","errorText":"failed: lost the database"}\n\ndata: [DONE]\n\n',
    );
  });

  it("sends a keep-alive comment after keepAliveMs without a write, each write putting it off", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let write: (chunk: UIMessageChunk) => void = () => {};
      let end: () => void = () => {};
      const response = ours(async (writeChunk) => {
        write = writeChunk;
        await new Promise<void>((resolve) => (end = resolve));
      }, 1_000);
      let received = "";
      const pump = (async () => {
        const decoder = new TextDecoder();
        for await (const bytes of response.body!) received += decoder.decode(bytes);
      })();
      const settle = () => new Promise((resolve) => setImmediate(resolve));
      const receivedWithin = async (ms: number) => {
        await vi.advanceTimersByTimeAsync(ms);
        await settle();
        const text = received;
        received = "";
        return text;
      };
      expect(await receivedWithin(999)).toBe(": stream-open\n\n");
      write(chunks[0]!);
      expect(await receivedWithin(999)).toBe('data: {"type":"start","messageId":"run-r1"}\n\n');
      expect(await receivedWithin(1)).toBe(": keep-alive\n\n");
      expect(await receivedWithin(1_000)).toBe(": keep-alive\n\n");
      end();
      await pump;
      expect(received).toBe("data: [DONE]\n\n");
    } finally {
      vi.useRealTimers();
    }
  });

  it("stops its timer and drops later writes once the reader cancels", async () => {
    let wrote: () => void = () => {};
    const writes = new Promise<void>((resolve) => (wrote = resolve));
    let writeLater: (chunk: UIMessageChunk) => void = () => {};
    let finish: () => void = () => {};
    const response = ours(async (write) => {
      writeLater = write;
      wrote();
      await new Promise<void>((resolve) => (finish = resolve));
    }, 20);
    const reader = response.body!.getReader();
    await reader.read();
    await writes;
    await reader.cancel();
    expect(() => writeLater(chunks[0]!)).not.toThrow();
    finish();
    await new Promise((resolve) => setTimeout(resolve, 60));
    // A keep-alive after the cancel would have thrown into the timer; nothing else can observe it.
    expect(await reader.read()).toEqual({ done: true, value: undefined });
  });
});
