import { existsSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { defineTool } from "../define-tool";
import type { Tool } from "../types";
import { type PathGate, UNCONFINED } from "./workspace";

type Operation =
  | { kind: "add"; path: string; lines: string[] }
  | { kind: "delete"; path: string }
  | { kind: "update"; path: string; hunks: Hunk[] };

interface Hunk {
  before: string[];
  after: string[];
}

const HEADER = /^\*\*\* (Add|Delete|Update) File: (.+)$/;

/** Reads the `*** Begin Patch` … `*** End Patch` format into operations; throws on anything else. */
function parsePatch(text: string): Operation[] {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const begin = lines.findIndex((line) => line.trim() === "*** Begin Patch");
  const end = lines.findIndex((line) => line.trim() === "*** End Patch");
  if (begin === -1 || end === -1 || end < begin)
    throw new Error("patch must sit between *** Begin Patch and *** End Patch");
  const operations: Operation[] = [];
  let hunk: Hunk | undefined;
  for (const line of lines.slice(begin + 1, end)) {
    const header = HEADER.exec(line);
    const current = operations.at(-1);
    if (header) {
      const [, kind, path] = header;
      if (kind === "Add") operations.push({ kind: "add", path: path!.trim(), lines: [] });
      else if (kind === "Delete") operations.push({ kind: "delete", path: path!.trim() });
      else operations.push({ kind: "update", path: path!.trim(), hunks: [] });
      hunk = undefined;
    } else if (current?.kind === "add") {
      if (!line.startsWith("+")) throw new Error(`an added file's lines start with "+": ${line}`);
      current.lines.push(line.slice(1));
    } else if (current?.kind === "update") {
      if (line.startsWith("@@")) {
        hunk = { before: [], after: [] };
        current.hunks.push(hunk);
        continue;
      }
      if (line === "" && !hunk) continue;
      if (!hunk) {
        hunk = { before: [], after: [] };
        current.hunks.push(hunk);
      }
      const mark = line[0] ?? " ";
      const rest = line.slice(1);
      if (mark === " " || line === "") {
        hunk.before.push(rest);
        hunk.after.push(rest);
      } else if (mark === "-") hunk.before.push(rest);
      else if (mark === "+") hunk.after.push(rest);
      else throw new Error(`a changed line starts with " ", "-" or "+": ${line}`);
    } else if (line.trim() !== "") {
      throw new Error(`unexpected line outside a file section: ${line}`);
    }
  }
  if (operations.length === 0) throw new Error("the patch changes no file");
  return operations;
}

function indexOfBlock(lines: string[], block: string[], from: number): number {
  for (let start = from; start + block.length <= lines.length; start += 1) {
    if (block.every((line, i) => lines[start + i] === line)) return start;
  }
  return -1;
}

function applyHunks(path: string, text: string, hunks: Hunk[]): string {
  const lines = text.split("\n");
  let cursor = 0;
  for (const hunk of hunks) {
    const at = indexOfBlock(lines, hunk.before, cursor);
    if (at === -1) throw new Error(`a hunk for ${path} does not match the file:\n${hunk.before.join("\n")}`);
    lines.splice(at, hunk.before.length, ...hunk.after);
    cursor = at + hunk.after.length;
  }
  return lines.join("\n");
}

/** Every change is worked out before any file is touched, so a patch applies whole or not at all. */
async function plan(operations: Operation[]): Promise<Map<string, string | null>> {
  const writes = new Map<string, string | null>();
  for (const op of operations) {
    if (op.kind === "add") {
      if (existsSync(op.path)) throw new Error(`${op.path} already exists`);
      writes.set(op.path, op.lines.join("\n"));
    } else if (op.kind === "delete") {
      if (!existsSync(op.path)) throw new Error(`${op.path} does not exist`);
      writes.set(op.path, null);
    } else {
      const current = writes.get(op.path) ?? (await readFile(op.path, "utf8"));
      writes.set(op.path, applyHunks(op.path, current, op.hunks));
    }
  }
  return writes;
}

export function applyPatchTool(gate: PathGate = UNCONFINED): Tool {
  return defineTool({
    name: "apply_patch",
    description:
      "Apply a patch in the *** Begin Patch / *** End Patch format (Add File, Update File with @@ hunks, Delete File). All or nothing.",
    source: "builtin",
    annotations: { destructiveHint: true },
    inputSchema: {
      type: "object",
      properties: { patchText: { type: "string" } },
      required: ["patchText"],
    },
    run: async (args) => {
      if (typeof args.patchText !== "string") throw new Error("patchText must be a string");
      const operations = parsePatch(args.patchText);
      for (const op of operations) op.path = await gate(op.path);
      const writes = await plan(operations);
      const done: string[] = [];
      for (const [path, content] of writes) {
        if (content === null) await rm(path);
        else await writeFile(path, content, "utf8");
        done.push(`${content === null ? "D" : "M"} ${path}`);
      }
      return `Applied the patch:\n${done.join("\n")}`;
    },
  });
}
