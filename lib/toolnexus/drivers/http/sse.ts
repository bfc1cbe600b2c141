import { createParser, type EventSourceMessage, type ParseError } from "eventsource-parser";

// Server-sent events from a provider's response body, read incrementally: eventsource-parser
// does the parsing, this adds what a model call needs around it (abort, a heartbeat per chunk,
// a bound on what one event may buffer, and the last event id carried forward).

export interface SseEvent {
  /** The `event:` field; absent means the default "message" type. */
  event?: string;
  data: string;
  /** The last event id the stream set, as the standard's `lastEventId`. */
  id?: string;
}

export interface ParseSseOptions {
  /** Aborting cancels the underlying stream and makes the iteration throw `signal.reason`. */
  signal?: AbortSignal;
  /** Called for every chunk that arrives, before it is parsed (used as an idle heartbeat). */
  onChunk?: () => void;
  /** An event (or a line) buffering more characters than this is a broken stream, not data. */
  maxBufferSize?: number;
}

export class SseBufferOverflowError extends Error {
  constructor(limit: number) {
    super(`An SSE event exceeded ${limit} characters`);
    this.name = "SseBufferOverflowError";
  }
}

const DEFAULT_MAX_BUFFER = 16 * 1024 * 1024;

export async function* parseSse(
  stream: ReadableStream<Uint8Array>,
  options: ParseSseOptions = {},
): AsyncGenerator<SseEvent> {
  const { signal, onChunk } = options;
  const maxBufferSize = options.maxBufferSize ?? DEFAULT_MAX_BUFFER;
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const onAbort = () => {
    reader.cancel(signal?.reason).catch(() => {});
  };
  signal?.addEventListener("abort", onAbort, { once: true });

  const ready: SseEvent[] = [];
  let overflow: ParseError | undefined;
  let lastId: string | undefined;
  const parser = createParser({
    maxBufferSize,
    onId: (id) => {
      lastId = id;
    },
    onEvent: (message: EventSourceMessage) => {
      const event: SseEvent = { data: message.data };
      if (message.event !== undefined) event.event = message.event;
      if (lastId !== undefined) event.id = lastId;
      ready.push(event);
    },
    // Unknown fields and bad `retry` values are ignored, as the standard says; only a stream
    // that would buffer without end is an error.
    onError: (error) => {
      if (error.type === "max-buffer-size-exceeded") overflow = error;
    },
  });
  const feed = (text: string) => {
    parser.feed(text);
    if (overflow) throw new SseBufferOverflowError(maxBufferSize);
  };

  let finished = false;
  try {
    if (signal?.aborted) throw signal.reason;
    while (true) {
      const { done, value } = await reader.read();
      if (signal?.aborted) throw signal.reason;
      if (done) break;
      onChunk?.();
      feed(decoder.decode(value, { stream: true }));
      yield* ready.splice(0);
    }
    finished = true;
    // The standard drops an unterminated final event; servers that omit the last blank line
    // are common enough that delivering it is the more useful reading.
    feed(`${decoder.decode()}\n\n`);
    yield* ready.splice(0);
  } finally {
    signal?.removeEventListener("abort", onAbort);
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
