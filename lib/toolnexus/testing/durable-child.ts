// A separate Node process for the process-boundary tests: it halts or resumes one run against
// the stub LLM server whose URL it is given, and reports what its tools saw as JSON.
//   halt   <baseUrl> <stateFile> <reportFile> [crash]
//   resume <baseUrl> <stateFile> <reportFile> <answersJson>
import { readFileSync, writeFileSync } from "node:fs";
import type { Answer, Checkpoint, Context } from "toolnexus";
import { createClient, createToolkit, defineTool, pending } from "toolnexus";

const [command, baseUrl, stateFile, reportFile, extra] = process.argv.slice(2);
if (!command || !baseUrl || !stateFile || !reportFile)
  throw new Error("usage: halt|resume <baseUrl> <state> <report>");
const crash = command === "halt" && extra === "crash";

const seen: Array<{ tool: string; pid: number; answer?: Answer; idempotencyKey?: string }> = [];
const note = (tool: string, ctx: Context | undefined) => {
  const entry: (typeof seen)[number] = { tool, pid: process.pid };
  if (ctx?.answer) entry.answer = ctx.answer;
  if (ctx?.idempotencyKey) entry.idempotencyKey = ctx.idempotencyKey;
  seen.push(entry);
};

const deploy = defineTool({
  name: "deploy",
  description: "Deploy to production after approval",
  run: (_args, ctx) => {
    note("deploy", ctx);
    if (!ctx?.answer) return pending({ kind: "approval", prompt: "Deploy to production?" });
    return `deployed, approved by ${String(ctx.answer.data?.by)}`;
  },
});
const audit = defineTool({
  name: "audit",
  description: "Write an audit line",
  run: (_args, ctx) => {
    note("audit", ctx);
    return "audited";
  },
});
const slow = defineTool({
  name: "slow",
  description: "A long job",
  run: (_args, ctx) => {
    note("slow", ctx);
    // In the crash scenario this process is killed while the job is still running.
    return crash ? new Promise<string>(() => {}) : "slow job finished";
  },
});

const client = createClient({ baseUrl, style: "openai", model: "stub-model", apiKey: "test-key" });
const toolkit = await createToolkit({ builtins: false, extraTools: [deploy, audit, slow] });
const onCheckpoint = (checkpoint: Checkpoint) => {
  writeFileSync(stateFile, JSON.stringify(checkpoint));
  if (crash && checkpoint.slots.some((slot) => slot.state.status === "done")) {
    writeFileSync(reportFile, JSON.stringify({ seen }));
    process.stdout.write("persisted\n");
  }
};

const result =
  command === "halt"
    ? await client.run("ship it", { toolkit, runId: "run-boundary", onCheckpoint })
    : await client.resume(
        JSON.parse(readFileSync(stateFile, "utf8")) as Checkpoint,
        JSON.parse(extra ?? "[]") as Answer[],
        { toolkit, onCheckpoint },
      );
writeFileSync(reportFile, JSON.stringify({ result, seen }));
await toolkit.close();
