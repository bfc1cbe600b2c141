// Plain-language requests the offline demo model understands. Deterministic on purpose:
// the same sentence always leads to the same tool call, so demos and tests are repeatable.

import { type McpIntent, parseMcpIntent } from "./demo-mcp-intent";

export type DemoIntent =
  | { kind: "deploy"; args: { service: string; version: string; environment: "staging" | "production" } }
  | { kind: "refund"; args: { orderId: string; amount: number; reason?: string } }
  | { kind: "book_flight"; args: { from?: string; to?: string; date?: string; passengers?: number } }
  | {
      kind: "question";
      args: { questions: Array<{ question: string; header?: string; options?: string[] }> };
    }
  | { kind: "balance" }
  | McpIntent
  | { kind: "help" };

const DEFAULT_SERVICE = "web";

export function parseDemoIntent(text: string): DemoIntent {
  const message = text.trim();
  return (
    parseShell(message) ??
    parseMcpIntent(message) ??
    parseDeploy(message) ??
    parseRefund(message) ??
    parseFlight(message) ??
    parseQuestion(message) ??
    parseBalance(message) ?? { kind: "help" }
  );
}

/** "run `date` in the shell": the `bash` built-in, when an admin has switched it on. */
function parseShell(message: string): DemoIntent | undefined {
  const command = /^(?:please\s+)?run\s+`([^`]+)`(?:\s+in\s+the\s+shell)?\s*\.?$/i.exec(message)?.[1]?.trim();
  if (!command) return undefined;
  return { kind: "call", tool: "bash", args: { command }, preface: `Running \`${command}\` in the shell.` };
}

function parseDeploy(message: string): DemoIntent | undefined {
  const match =
    /\bdeploy\s+(?:([a-z][\w-]*)\s+)?(v?\d+(?:\.\d+){0,2})\s+(?:to|on|in)\s+(?:the\s+)?(production|prod|staging|stage)\b/i.exec(
      message,
    );
  if (!match) return undefined;
  const [, service, version, env] = match;
  const environment = /^prod/i.test(env!) ? "production" : "staging";
  return {
    kind: "deploy",
    args: { service: service?.toLowerCase() ?? DEFAULT_SERVICE, version: version!, environment },
  };
}

function parseRefund(message: string): DemoIntent | undefined {
  const match = /\brefund\s+(?:order\s+)?#?([A-Za-z0-9-]+)\s+(?:for\s+)?\$?\s?(\d+(?:\.\d{1,2})?)/i.exec(
    message,
  );
  if (!match) return undefined;
  const reason = /\b(?:because|since)\s+(.+)$/i.exec(message)?.[1]?.trim();
  return {
    kind: "refund",
    args: {
      orderId: match[1]!,
      amount: Number(match[2]),
      ...(reason ? { reason: reason.slice(0, 200) } : {}),
    },
  };
}

function parseFlight(message: string): DemoIntent | undefined {
  if (!/\bbook\b.*\bflights?\b|\bflight\b.*\bbook\b/i.test(message)) return undefined;
  const args: { from?: string; to?: string; date?: string; passengers?: number } = {};
  // Airport codes only when written as codes, so "to the coast" does not become airport THE.
  const from = /\bfrom\s+([A-Z]{3})\b/.exec(message)?.[1];
  const to = /\bto\s+([A-Z]{3})\b/.exec(message)?.[1];
  const date = /\b(\d{4}-\d{2}-\d{2})\b/.exec(message)?.[1];
  const passengers = /\bfor\s+(\d)\s*(?:people|persons|passengers|adults|travell?ers)?\b/i.exec(message)?.[1];
  if (from) args.from = from;
  if (to) args.to = to;
  if (date) args.date = date;
  if (passengers) args.passengers = Number(passengers);
  return { kind: "book_flight", args };
}

function parseQuestion(message: string): DemoIntent | undefined {
  const match = /^(?:please\s+)?ask\s+me\b\s*(?:a\s+question\b|something\b)?\s*(?:about\s+)?(.*)$/i.exec(
    message,
  );
  if (!match && !/^question\b/i.test(message)) return undefined;
  const topic = match?.[1]?.replace(/[?.!\s]+$/, "").trim();
  if (topic) {
    const question = topic.endsWith("?") ? topic : `${topic.charAt(0).toUpperCase()}${topic.slice(1)}?`;
    return { kind: "question", args: { questions: [{ question }] } };
  }
  return {
    kind: "question",
    args: {
      questions: [
        {
          question: "Which environment do you deploy to most?",
          header: "Environment",
          options: ["staging", "production"],
        },
        { question: "What should I call you?", header: "Name" },
      ],
    },
  };
}

function parseBalance(message: string): DemoIntent | undefined {
  return /\b(?:balance|how much money)\b/i.test(message) ? { kind: "balance" } : undefined;
}
