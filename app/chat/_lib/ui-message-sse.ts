import { UI_MESSAGE_STREAM_HEADERS } from "ai";

const encoder = new TextEncoder();
const STREAM_OPEN = encoder.encode(": stream-open\n\n");
const KEEP_ALIVE = encoder.encode(": keep-alive\n\n");
const DONE = encoder.encode("data: [DONE]\n\n");

export interface UiMessageSseOptions<Chunk> {
  /** Writes the chunks; the stream ends once it settles. */
  execute: (write: (chunk: Chunk) => void) => Promise<void>;
  /** The text of the `error` chunk sent when `execute` fails. */
  onError: (error: unknown) => string;
  /** A comment line after this long without a write, so proxies keep a quiet stream open. */
  keepAliveMs: number;
}

/**
 * A UI message stream as the AI SDK's `createUIMessageStream` and
 * `createUIMessageStreamResponse` (with `keepAliveMs`) send it, byte for byte: `: stream-open`,
 * one `data: <json>` event per chunk, `: keep-alive` after `keepAliveMs` without one, an `error`
 * chunk if `execute` fails, then `data: [DONE]`. The SDK builds that from five web streams per
 * response (its source, an id-injecting transform, the JSON-to-SSE transform, a keep-alive
 * stream and a text encoder), which cost tens of kilobytes for every viewer left waiting on a
 * parked run; this is one stream writing bytes. Chunks pass unchanged: the SDK would only add a
 * generated `messageId` to a `start` chunk without one, and every `start` this app sends has it.
 */
export function uiMessageSseResponse<Chunk>({
  execute,
  onError,
  keepAliveMs,
}: UiMessageSseOptions<Chunk>): Response {
  let closed = false;
  let keepAlive: ReturnType<typeof setTimeout> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (bytes: Uint8Array) => {
        if (closed) return;
        controller.enqueue(bytes);
        // One timer per stream, restarted by every write rather than replaced.
        keepAlive?.refresh();
      };
      const write = (chunk: Chunk) => send(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
      send(STREAM_OPEN);
      keepAlive = setTimeout(function beat() {
        if (closed) return;
        // As the SDK does: no comment piles up behind a reader that is not reading.
        if ((controller.desiredSize ?? 0) > 0) controller.enqueue(KEEP_ALIVE);
        keepAlive = setTimeout(beat, keepAliveMs);
      }, keepAliveMs);
      execute(write)
        .catch((error: unknown) => {
          let errorText: string;
          try {
            errorText = onError(error);
          } catch (onErrorError) {
            finish();
            if (!closed) controller.error(onErrorError);
            closed = true;
            return;
          }
          write({ type: "error", errorText } as Chunk);
        })
        .then(() => {
          send(DONE);
          finish();
          if (!closed) controller.close();
          closed = true;
        });
    },
    cancel() {
      closed = true;
      finish();
    },
  });
  const finish = () => clearTimeout(keepAlive);
  return new Response(body, { headers: UI_MESSAGE_STREAM_HEADERS });
}
