import { readFile } from "node:fs/promises";
import path from "node:path";
import { glob } from "tinyglobby";
import { defineTool } from "../define-tool";
import type { Tool } from "../types";
import { type PathGate, refuseClimbing, UNCONFINED } from "./workspace";

const IGNORED = ["**/node_modules/**", "**/.git/**"];
const MAX_LINES = 500;

function stringArg(args: Record<string, unknown>, name: string, fallback?: string): string {
  const value = args[name] ?? fallback;
  if (typeof value !== "string" || value === "") throw new Error(`${name} must be a non-empty string`);
  return value;
}

/** A pattern without a slash matches at any depth, as in .gitignore. */
function deep(pattern: string): string {
  return pattern.includes("/") ? pattern : `**/${pattern}`;
}

async function within(files: string[], cwd: string, gate: PathGate): Promise<string[]> {
  if (gate === UNCONFINED) return files;
  const kept: string[] = [];
  for (const file of files) {
    try {
      await gate(path.join(cwd, file));
      kept.push(file);
    } catch {
      // outside the workspace: left out
    }
  }
  return kept;
}

export function globTool(gate: PathGate = UNCONFINED): Tool {
  return defineTool({
    name: "glob",
    description: "List files matching a glob pattern (e.g. *.ts, src/**/*.md), relative to path.",
    source: "builtin",
    annotations: { readOnlyHint: true },
    inputSchema: {
      type: "object",
      properties: {
        pattern: { type: "string" },
        path: { type: "string", description: "Directory to search." },
      },
      required: ["pattern"],
    },
    run: async (args) => {
      const cwd = await gate(stringArg(args, "path", "."));
      const pattern = stringArg(args, "pattern");
      refuseClimbing(pattern, gate);
      const found = await glob(deep(pattern), { cwd, ignore: IGNORED, dot: false });
      // A symbolic link inside may point outside: only what stays inside is listed.
      const files = (await within(found, cwd, gate)).sort();
      return { output: files.join("\n"), isError: false, metadata: { count: files.length } };
    },
  });
}

export function grepTool(gate: PathGate = UNCONFINED): Tool {
  return defineTool({
    name: "grep",
    description: "Search file contents for a regular expression; include narrows the files by glob.",
    source: "builtin",
    annotations: { readOnlyHint: true },
    inputSchema: {
      type: "object",
      properties: {
        pattern: { type: "string", description: "A JavaScript regular expression." },
        path: { type: "string", description: "Directory to search." },
        include: { type: "string", description: "Glob of the files to search, e.g. *.ts." },
      },
      required: ["pattern"],
    },
    run: async (args) => {
      const cwd = await gate(stringArg(args, "path", "."));
      const pattern = new RegExp(stringArg(args, "pattern"));
      const include = typeof args.include === "string" && args.include !== "" ? deep(args.include) : "**/*";
      refuseClimbing(include, gate);
      const files = (await within(await glob(include, { cwd, ignore: IGNORED }), cwd, gate)).sort();
      const lines: string[] = [];
      let count = 0;
      for (const file of files) {
        let text: string;
        try {
          text = await readFile(path.join(cwd, file), "utf8");
        } catch {
          continue;
        }
        text.split("\n").forEach((line, index) => {
          if (!pattern.test(line)) return;
          count += 1;
          if (lines.length < MAX_LINES) lines.push(`${file}:${index + 1}: ${line}`);
        });
      }
      const output =
        count > lines.length ? `${lines.join("\n")}\n… ${count - lines.length} more` : lines.join("\n");
      return { output: output || "No matches", isError: false, metadata: { count } };
    },
  });
}
