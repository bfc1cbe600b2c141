import { spawn } from "node:child_process";
import { defineTool } from "../define-tool";
import type { Tool } from "../types";

const DEFAULT_BASH_TIMEOUT_MS = 120_000;
const MAX_OUTPUT = 100_000;

export function bashTool(): Tool {
  return defineTool({
    name: "bash",
    description: "Run a shell command with bash; a non-zero exit is an error.",
    source: "builtin",
    annotations: { destructiveHint: true, openWorldHint: true },
    inputSchema: {
      type: "object",
      properties: {
        command: { type: "string" },
        workdir: { type: "string", description: "Directory to run it in." },
        timeout: { type: "integer", minimum: 1, description: "Milliseconds before it is stopped." },
      },
      required: ["command"],
    },
    run: (args, ctx) => {
      if (typeof args.command !== "string" || args.command === "")
        throw new Error("command must be a string");
      const timeout =
        typeof args.timeout === "number" ? args.timeout : (ctx?.timeout ?? DEFAULT_BASH_TIMEOUT_MS);
      return new Promise((resolve, reject) => {
        const child = spawn("bash", ["-c", args.command as string], {
          cwd: typeof args.workdir === "string" ? args.workdir : undefined,
          timeout,
          ...(ctx?.signal ? { signal: ctx.signal } : {}),
        });
        let output = "";
        const collect = (chunk: Buffer) => {
          if (output.length < MAX_OUTPUT) output += chunk.toString("utf8");
        };
        child.stdout.on("data", collect);
        child.stderr.on("data", collect);
        child.on("error", reject);
        child.on("close", (code, signal) => {
          const text = output.slice(0, MAX_OUTPUT);
          if (code === 0) return resolve({ output: text, isError: false, metadata: { exitCode: 0 } });
          const why = code === null ? `was stopped (${signal})` : `exited with code ${code}`;
          resolve({ output: `Command ${why}\n${text}`, isError: true, metadata: { exitCode: code } });
        });
      });
    },
  });
}

export function todowriteTool(): Tool {
  return defineTool({
    name: "todowrite",
    description: "Replace the todo list with the one given; returns it rendered as a checklist.",
    source: "builtin",
    annotations: { readOnlyHint: true },
    inputSchema: {
      type: "object",
      properties: {
        todos: {
          type: "array",
          items: {
            type: "object",
            properties: { id: { type: "string" }, text: { type: "string" }, completed: { type: "boolean" } },
            required: ["id", "text", "completed"],
          },
        },
      },
      required: ["todos"],
    },
    run: (args) => {
      if (!Array.isArray(args.todos)) throw new Error("todos must be an array");
      const todos = args.todos as { text?: unknown; completed?: unknown }[];
      const rendered = todos.map(
        (todo) => `[${todo.completed === true ? "x" : " "}] ${String(todo.text ?? "")}`,
      );
      return { output: rendered.join("\n") || "(no todos)", isError: false, metadata: { todos } };
    },
  });
}
