// JSON as the app accepts it: well formed, no key twice in one object, and nested at most
// MAX_JSON_DEPTH levels. JSON.parse keeps the last of two equal keys without a word, so a body
// could say one thing to a reader and another to the app; and a value nested thousands deep
// overflows the stack of whatever walks it recursively later (stringifying, hashing, storing,
// rendering). JSON.parse itself is iterative in V8 (measured: 500,000 levels parse), so it
// parses first; a scanner that keeps its own stack then finds repeated keys and excess depth.
// Hand-written (ADR 0057): what a library's parser would add is a second parse of the text.

/** How deeply any JSON the app accepts may nest: objects and arrays, the outermost one included. */
export const MAX_JSON_DEPTH = 64;

/** One problem, addressed by a JSON pointer ("/" is the whole value), as the API's issues are. */
export interface JsonIssue {
  path: string;
  message: string;
}

export type StrictJson =
  | { status: "ok"; value: unknown }
  | {
      status: "refused";
      problem: "malformed" | "duplicate_key" | "too_deep";
      issue: JsonIssue;
      detail: string;
    };

export const tooDeepMessage = `is nested deeper than ${MAX_JSON_DEPTH} levels`;

function pointer(segments: readonly string[]): string {
  if (segments.length === 0) return "/";
  return segments.map((segment) => `/${segment.replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

/** The index of the quote that closes the string opening at `start`. */
function endOfString(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i += 2;
    else if (c === 0x22) return i;
    else i += 1;
  }
  return text.length;
}

interface Frame {
  /** The keys seen so far, for an object; null for an array. */
  keys: Set<string> | null;
  /** The member key or item index being read: the frame's segment of a pointer. */
  segment: string;
  index: number;
  awaitingKey: boolean;
}

/** Scans text that JSON.parse has accepted; no recursion, so no depth can overflow it. */
function scan(text: string, maxDepth: number): Extract<StrictJson, { status: "refused" }> | null {
  const frames: Frame[] = [];
  const path = (last?: string) =>
    pointer([...frames.map((frame) => frame.segment), ...(last === undefined ? [] : [last])]);
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = endOfString(text, i);
      const top = frames.at(-1);
      if (top?.keys && top.awaitingKey) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        top.awaitingKey = false;
        if (top.keys.has(key)) {
          frames.pop();
          const shown = JSON.stringify(key.length > 100 ? `${key.slice(0, 100)}…` : key);
          return {
            status: "refused",
            problem: "duplicate_key",
            issue: { path: path(key), message: "repeats a key of the same object" },
            detail: `repeats the key ${shown} in one object`,
          };
        }
        top.keys.add(key);
        top.segment = key;
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      if (frames.length >= maxDepth) {
        return {
          status: "refused",
          problem: "too_deep",
          issue: { path: path(), message: tooDeepMessage },
          detail: tooDeepMessage,
        };
      }
      frames.push(
        c === 0x7b
          ? { keys: new Set(), segment: "", index: 0, awaitingKey: true }
          : { keys: null, segment: "0", index: 0, awaitingKey: false },
      );
    } else if (c === 0x7d || c === 0x5d) {
      frames.pop();
    } else if (c === 0x2c) {
      const top = frames.at(-1)!;
      if (top.keys) top.awaitingKey = true;
      else {
        top.index += 1;
        top.segment = String(top.index);
      }
    }
  }
  return null;
}

/** Parses `text` as the app accepts JSON, or says what is wrong and where. */
export function parseStrictJson(text: string, maxDepth = MAX_JSON_DEPTH): StrictJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      status: "refused",
      problem: "malformed",
      issue: { path: "/", message: "is not valid JSON" },
      detail: `is not valid JSON (${(error as Error).message})`,
    };
  }
  return scan(text, maxDepth) ?? { status: "ok", value };
}

/**
 * Where an already parsed value (an MCP server's reply, an answer) nests deeper than
 * `maxDepth`, or null. Iterative, like the scanner; a cycle counts as too deep.
 */
export function jsonDepthIssue(value: unknown, maxDepth = MAX_JSON_DEPTH): JsonIssue | null {
  const parents: number[] = [];
  const segments: string[] = [];
  const stack: { value: unknown; depth: number; node: number }[] = [{ value, depth: 1, node: -1 }];
  while (stack.length > 0) {
    const { value: current, depth, node } = stack.pop()!;
    if (current === null || typeof current !== "object") continue;
    if (depth > maxDepth) {
      const path: string[] = [];
      for (let at = node; at !== -1; at = parents[at]!) path.unshift(segments[at]!);
      return { path: pointer(path), message: tooDeepMessage };
    }
    const entries = Array.isArray(current) ? current.entries() : Object.entries(current);
    for (const [key, child] of entries) {
      if (child === null || typeof child !== "object") continue;
      parents.push(node);
      segments.push(String(key));
      stack.push({ value: child, depth: depth + 1, node: parents.length - 1 });
    }
  }
  return null;
}
