import { readFile, writeFile } from "node:fs/promises";
import { defineTool } from "../define-tool";
import type { Tool } from "../types";
import { type PathGate, UNCONFINED } from "./workspace";

const pathProperty = {
  type: "string",
  description: "Path of the file, absolute or relative to the working directory.",
};

function stringArg(args: Record<string, unknown>, name: string): string {
  const value = args[name];
  if (typeof value !== "string") throw new Error(`${name} must be a string`);
  return value;
}

function positiveInt(args: Record<string, unknown>, name: string): number | undefined {
  const value = args[name];
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || (value as number) < 1)
    throw new Error(`${name} must be a positive integer`);
  return value as number;
}

export function readTool(gate: PathGate = UNCONFINED): Tool {
  return defineTool({
    name: "read",
    description: "Read a text file; offset (1-based line) and limit select a window of lines.",
    source: "builtin",
    annotations: { readOnlyHint: true },
    inputSchema: {
      type: "object",
      properties: {
        path: pathProperty,
        offset: { type: "integer", minimum: 1, description: "First line to read, from 1." },
        limit: { type: "integer", minimum: 1, description: "How many lines to read." },
      },
      required: ["path"],
    },
    run: async (args) => {
      const text = await readFile(await gate(stringArg(args, "path")), "utf8");
      const offset = positiveInt(args, "offset");
      const limit = positiveInt(args, "limit");
      if (offset === undefined && limit === undefined) return text;
      const start = (offset ?? 1) - 1;
      return text
        .split("\n")
        .slice(start, limit === undefined ? undefined : start + limit)
        .join("\n");
    },
  });
}

export function writeTool(gate: PathGate = UNCONFINED): Tool {
  return defineTool({
    name: "write",
    description: "Write a text file, replacing what it held.",
    source: "builtin",
    annotations: { destructiveHint: true },
    inputSchema: {
      type: "object",
      properties: { path: pathProperty, content: { type: "string" } },
      required: ["path", "content"],
    },
    run: async (args) => {
      const content = stringArg(args, "content");
      await writeFile(await gate(stringArg(args, "path")), content, "utf8");
      return `Wrote ${Buffer.byteLength(content)} bytes to ${stringArg(args, "path")}`;
    },
  });
}

function occurrences(text: string, part: string): number {
  let count = 0;
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length)) count += 1;
  return count;
}

export function editTool(gate: PathGate = UNCONFINED): Tool {
  return defineTool({
    name: "edit",
    description:
      "Replace oldString with newString in a file. oldString must occur exactly once unless replaceAll is true.",
    source: "builtin",
    annotations: { destructiveHint: true },
    inputSchema: {
      type: "object",
      properties: {
        path: pathProperty,
        oldString: { type: "string" },
        newString: { type: "string" },
        replaceAll: { type: "boolean" },
      },
      required: ["path", "oldString", "newString"],
    },
    run: async (args) => {
      const file = await gate(stringArg(args, "path"));
      const oldString = stringArg(args, "oldString");
      const newString = stringArg(args, "newString");
      if (oldString === "") throw new Error("oldString must not be empty");
      const text = await readFile(file, "utf8");
      const found = occurrences(text, oldString);
      // Nothing is written unless the edit is unambiguous.
      if (found === 0) throw new Error(`oldString not found in ${file}`);
      if (found > 1 && args.replaceAll !== true) {
        throw new Error(
          `oldString is not unique in ${file} (${found} matches); give more context or replaceAll`,
        );
      }
      await writeFile(file, text.split(oldString).join(newString), "utf8");
      return `Replaced ${args.replaceAll === true ? found : 1} occurrence(s) in ${file}`;
    },
  });
}
