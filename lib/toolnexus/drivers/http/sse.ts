// Server-sent events as the HTML living standard defines them, decoded incrementally so a
// long stream never sits in memory: only the current line and the current event are kept.

export interface SseEvent {
  /** The `event:` field; absent means the default "message" type. */
  event?: string;
  data: string;
  id?: string;
}

export interface ParseSseOptions {
  /** Aborting cancels the underlying stream and makes the iteration throw `signal.reason`. */
  signal?: AbortSignal;
  /** Called for every chunk that arrives, before it is parsed (used as an idle heartbeat). */
  onChunk?: () => void;
  /** A single line longer than this is treated as a broken stream rather than buffered forever. */
  maxLineLength?: number;
}

export class SseLineTooLongError extends Error {
  constructor(limit: number) {
    super(`An SSE line exceeded ${limit} characters`);
    this.name = "SseLineTooLongError";
  }
}

const DEFAULT_MAX_LINE = 16 * 1024 * 1024;

export async function* parseSse(
  stream: ReadableStream<Uint8Array>,
  options: ParseSseOptions = {},
): AsyncGenerator<SseEvent> {
  const { signal, onChunk } = options;
  const maxLine = options.maxLineLength ?? DEFAULT_MAX_LINE;
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const onAbort = () => {
    reader.cancel(signal?.reason).catch(() => {});
  };
  signal?.addEventListener("abort", onAbort, { once: true });

  let buffer = "";
  // A chunk may end between "\r" and "\n"; remember it so the "\n" is not read as a blank line.
  let pendingCr = false;
  let data: string[] = [];
  let eventType: string | undefined;
  let lastId: string | undefined;
  let finished = false;

  const takeEvent = (): SseEvent | undefined => {
    if (data.length === 0) {
      eventType = undefined;
      return undefined;
    }
    const event: SseEvent = { data: data.join("\n") };
    if (eventType !== undefined) event.event = eventType;
    if (lastId !== undefined) event.id = lastId;
    data = [];
    eventType = undefined;
    return event;
  };

  const processLine = (line: string): SseEvent | undefined => {
    if (line === "") return takeEvent();
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") eventType = value;
    else if (field === "id" && !value.includes("\0")) lastId = value;
    return undefined;
  };

  try {
    if (signal?.aborted) throw signal.reason;
    while (true) {
      const { done, value } = await reader.read();
      if (signal?.aborted) throw signal.reason;
      if (done) break;
      onChunk?.();
      // What is left in the buffer holds no line break, so scanning resumes where it stopped.
      const scanned = buffer.length;
      buffer += decoder.decode(value, { stream: true });
      let start = 0;
      if (pendingCr && buffer.charCodeAt(scanned) === 10) start = scanned + 1;
      pendingCr = false;

      for (let i = Math.max(start, scanned); i < buffer.length; i++) {
        const ch = buffer.charCodeAt(i);
        if (ch !== 10 && ch !== 13) continue;
        const event = processLine(buffer.slice(start, i));
        if (ch === 13) {
          if (i + 1 === buffer.length) pendingCr = true;
          else if (buffer.charCodeAt(i + 1) === 10) i++;
        }
        start = i + 1;
        if (event) yield event;
      }
      buffer = buffer.slice(start);
      if (buffer.length > maxLine) throw new SseLineTooLongError(maxLine);
    }
    buffer += decoder.decode();
    finished = true;
    // The standard drops an unterminated final event; servers that omit the last blank line
    // are common enough that delivering it is the more useful reading.
    if (buffer !== "") {
      const event = processLine(buffer);
      if (event) yield event;
    }
    const last = takeEvent();
    if (last) yield last;
  } finally {
    signal?.removeEventListener("abort", onAbort);
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
