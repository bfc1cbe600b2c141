import { describe, expect, it } from "vitest";
import { type ParseSseOptions, parseSse, SseBufferOverflowError, type SseEvent } from "./sse";

const encoder = new TextEncoder();

function streamOf(chunks: Array<string | Uint8Array>, onCancel?: (reason: unknown) => void) {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[i++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
    },
    cancel(reason) {
      onCancel?.(reason);
    },
  });
}

async function collectWith(
  stream: ReadableStream<Uint8Array>,
  options: ParseSseOptions,
): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of parseSse(stream, options)) events.push(event);
  return events;
}

const collect = (stream: ReadableStream<Uint8Array>) => collectWith(stream, {});

describe("parseSse", () => {
  it("splits events on blank lines and keeps event names and ids", async () => {
    const events = await collect(
      streamOf(["event: ping\ndata: {}\n\n", "id: 7\ndata: a\n", "data: b\n\n", "data: [DONE]\n\n"]),
    );
    expect(events).toEqual([
      { event: "ping", data: "{}" },
      { data: "a\nb", id: "7" },
      { data: "[DONE]", id: "7" },
    ]);
  });

  it("handles CRLF, lone CR and a CRLF split across chunks", async () => {
    const events = await collect(streamOf(["data: one\r", "\n\r", "\ndata: two\r\rdata:three\n\n"]));
    expect(events.map((e) => e.data)).toEqual(["one", "two", "three"]);
  });

  it("ignores comments, unknown fields and events without data", async () => {
    const events = await collect(streamOf([": keep-alive\n\nretry: 10\nevent: x\n\nfoo: bar\ndata: y\n\n"]));
    expect(events).toEqual([{ data: "y" }]);
  });

  it("keeps only one leading space of a value and accepts a field without a colon", async () => {
    const events = await collect(streamOf(["data:  two spaces\ndata\n\n"]));
    expect(events).toEqual([{ data: " two spaces\n" }]);
  });

  it("decodes multi-byte characters split between chunks", async () => {
    const bytes = encoder.encode("data: héllo €\n\n");
    const cut = bytes.indexOf(0xe2) + 1;
    const events = await collect(streamOf([bytes.slice(0, 9), bytes.slice(9, cut), bytes.slice(cut)]));
    expect(events).toEqual([{ data: "héllo €" }]);
  });

  it("joins a line delivered across many small chunks", async () => {
    const text = `data: ${"abc".repeat(50)}\r\n\r\ndata: z\n\n`;
    const chunks = text.match(/[\s\S]{1,3}/g)!;
    expect(await collect(streamOf(chunks))).toEqual([{ data: "abc".repeat(50) }, { data: "z" }]);
  });

  it("delivers a final event that lacks the closing blank line", async () => {
    expect(await collect(streamOf(["data: a\n\ndata: tail"]))).toEqual([{ data: "a" }, { data: "tail" }]);
    expect(await collect(streamOf(["data: a\n\ndata: tail\n"]))).toEqual([{ data: "a" }, { data: "tail" }]);
  });

  it("calls onChunk once per received chunk", async () => {
    let chunks = 0;
    const events: SseEvent[] = [];
    for await (const e of parseSse(streamOf(["data: a\n", "\n", "data: b\n\n"]), {
      onChunk: () => chunks++,
    })) {
      events.push(e);
    }
    expect(chunks).toBe(3);
    expect(events).toHaveLength(2);
  });

  it("cancels the source when the consumer stops early", async () => {
    let cancelled = false;
    const stream = streamOf(["data: a\n\n", "data: b\n\n", "data: c\n\n"], () => {
      cancelled = true;
    });
    for await (const event of parseSse(stream)) {
      expect(event.data).toBe("a");
      break;
    }
    expect(cancelled).toBe(true);
  });

  it("throws the signal's reason and cancels the source on abort", async () => {
    let cancelReason: unknown;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode("data: first\n\n"));
      },
      cancel(reason) {
        cancelReason = reason;
      },
    });
    const controller = new AbortController();
    const seen: string[] = [];
    const run = (async () => {
      for await (const event of parseSse(stream, { signal: controller.signal })) {
        seen.push(event.data);
        controller.abort(new Error("stop"));
      }
    })();
    await expect(run).rejects.toThrow("stop");
    expect(seen).toEqual(["first"]);
    expect(cancelReason).toBeInstanceOf(Error);
  });

  it("refuses to buffer an endless line or event", async () => {
    const run = collect(streamOf(["data: ", "x".repeat(40), "y".repeat(40)]));
    await expect(
      (async () => {
        for await (const _ of parseSse(streamOf(["data: ", "x".repeat(40), "y".repeat(40)]), {
          maxBufferSize: 64,
        })) {
          // drain
        }
      })(),
    ).rejects.toBeInstanceOf(SseBufferOverflowError);
    expect(await run).toEqual([{ data: `${"x".repeat(40)}${"y".repeat(40)}` }]);
  });

  it("refuses an event that never ends, even when each of its lines is short", async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `data: line ${i}\n`);
    await expect(collectWith(streamOf(lines), { maxBufferSize: 64 })).rejects.toBeInstanceOf(
      SseBufferOverflowError,
    );
    expect(await collectWith(streamOf([...lines, "\n"]), { maxBufferSize: 1024 })).toHaveLength(1);
  });
});
