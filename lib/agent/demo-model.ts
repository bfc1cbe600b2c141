import { setTimeout as sleep } from "node:timers/promises";
import type { InProcessPart, Message, ModelInput, ToolSpec } from "toolnexus";
import { APP_BUILTINS } from "./builtins/app-builtins";
import { type DemoIntent, parseDemoIntent } from "./demo-intent";
import { BANK_TRANSACTIONS_TOOL, TICKET_TOOLS } from "./demo-mcp-intent";
import { composeReply, latestToolResults } from "./demo-reply";

export const DEMO_MODEL_NAME = "toolnexus-demo";

/** The OAuth demo registers a tool by this name; until then the model says it is missing. */
export const BALANCE_TOOL_NAME = "get_balance";

export const DEMO_HELP = [
  "I'm the offline demo model. I understand a few requests:",
  "• “deploy v1.4 to production” (needs a reviewer) or “deploy api v2.0 to staging”",
  "• “refund order 1234 for $250” (above $100 needs a reviewer)",
  "• “book a flight from BER to LIS on 2030-05-01 for 2” (I'll ask for what's missing)",
  "• “ask me a question”",
  "• “what's my balance”",
].join("\n");

/**
 * The tools the demo model has words for, and the built-ins an admin may switch on; any other
 * tool came from an MCP server.
 */
const OWN_TOOLS = new Set([
  "deploy",
  "refund",
  "book_flight",
  "question",
  BALANCE_TOOL_NAME,
  ...APP_BUILTINS,
]);

function firstLine(text: string): string {
  const line = text.split("\n")[0]?.trim() ?? "";
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/** Help, with the MCP tools this run has: the ticket tracker's sentences, then every tool by name. */
export function demoHelp(tools: ToolSpec[]): string {
  const names = new Set(tools.map((tool) => tool.name));
  const mcp = tools.filter((tool) => !OWN_TOOLS.has(tool.name));
  const lines = [DEMO_HELP];
  if (names.has("bash")) lines.push("• “run `date` in the shell” (the server's shell: a reviewer approves)");
  if (mcp.length === 0) return lines.join("\n");
  if (names.has(TICKET_TOOLS.list)) lines.push("• “list my tickets”");
  if (names.has(TICKET_TOOLS.delete)) lines.push("• “delete ticket 7” (destructive: needs a reviewer)");
  if (names.has(TICKET_TOOLS.open))
    lines.push("• “open a ticket” (the ticket server asks you for the details)");
  if (names.has(BANK_TRANSACTIONS_TOOL))
    lines.push("• “show my transactions” (you sign in to Demo Bank first)");
  lines.push("", "Tools from MCP servers, which I call by name (“call <tool> {json arguments}”):");
  for (const tool of mcp)
    lines.push(`• ${tool.name}${tool.description ? ` — ${firstLine(tool.description)}` : ""}`);
  return lines.join("\n");
}

function lastUserText(messages: Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === "user") return message.content;
  }
  return "";
}

function plan(
  intent: DemoIntent,
): { preface: string; tool: string; args: Record<string, unknown> } | undefined {
  switch (intent.kind) {
    case "deploy": {
      const { service, version, environment } = intent.args;
      return {
        // Said before the tool is called, when it may still wait for a reviewer: a request,
        // never a claim that it is under way.
        preface: `Requesting a deploy of ${service} ${version} to ${environment}.`,
        tool: "deploy",
        args: intent.args,
      };
    }
    case "refund":
      return {
        preface: `Requesting a refund of $${intent.args.amount.toFixed(2)} for order ${intent.args.orderId}.`,
        tool: "refund",
        args: intent.args,
      };
    case "book_flight":
      return { preface: "Let me book that flight.", tool: "book_flight", args: intent.args };
    case "question":
      return { preface: "I have a question for you.", tool: "question", args: intent.args };
    case "balance":
      return { preface: "Checking your balance.", tool: BALANCE_TOOL_NAME, args: {} };
    case "call":
      return { preface: intent.preface, tool: intent.tool, args: intent.args };
    case "help":
      return undefined;
  }
}

/** Splits text into small word groups so the UI visibly streams, as with a hosted model. */
export function toDeltas(text: string, wordsPerDelta = 3): string[] {
  const words = text.match(/\S+\s*/g) ?? [];
  const leading = /^\s*/.exec(text)?.[0] ?? "";
  const deltas: string[] = [];
  for (let i = 0; i < words.length; i += wordsPerDelta)
    deltas.push(words.slice(i, i + wordsPerDelta).join(""));
  if (leading && deltas.length > 0) deltas[0] = leading + deltas[0];
  return deltas;
}

function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/**
 * The offline demo model: reads the conversation, picks at most one tool per turn from the
 * latest user message, and answers from the tool results once they are back. `deltaDelayMs`
 * (`TOOLNEXUS_DEMO_DELTA_MS`) pauses between text deltas so streaming can be watched live.
 */
export function createDemoGenerate({ deltaDelayMs }: { deltaDelayMs: number }) {
  return (input: ModelInput) => generateDemoTurn(input, deltaDelayMs);
}

async function* paced(
  deltas: string[],
  delayMs: number,
  signal?: AbortSignal,
): AsyncGenerator<InProcessPart> {
  for (const [index, delta] of deltas.entries()) {
    if (delayMs > 0 && index > 0) await sleep(delayMs, undefined, signal ? { signal } : undefined);
    yield { type: "text", delta };
  }
}

async function* generateDemoTurn(input: ModelInput, delayMs: number): AsyncGenerator<InProcessPart> {
  const promptTokens = estimateTokens(input.messages.map((m) => m.content).join("\n"));
  const last = input.messages.at(-1);
  let text: string;

  if (last?.role === "tool") {
    text = composeReply(latestToolResults(input.messages));
  } else {
    const step = plan(parseDemoIntent(lastUserText(input.messages)));
    const available = new Set(input.tools.map((tool) => tool.name));
    if (step && available.has(step.tool)) {
      yield* paced(toDeltas(step.preface), delayMs, input.signal);
      yield { type: "tool_call", name: step.tool, args: step.args };
      yield { type: "usage", usage: { promptTokens, completionTokens: estimateTokens(step.preface) + 8 } };
      return;
    }
    const help = demoHelp(input.tools);
    text = step ? `The ${step.tool} tool is not available in this workspace.\n\n${help}` : help;
  }

  yield* paced(toDeltas(text), delayMs, input.signal);
  yield { type: "usage", usage: { promptTokens, completionTokens: estimateTokens(text) } };
}
