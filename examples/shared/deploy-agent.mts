// What the deploy examples share: a deploy tool that suspends for an approval, a stubbed model
// that calls it once and reports what it said, and the run that prints whether it deployed.
// Each example brings what it is about: how its tool reads the answer, and its `waitFor`.
import { type Answer, createClient, createToolkit, defineTool, pending, type WaitFor } from "toolnexus";

export const version = process.env.DEPLOY_VERSION ?? "v1.4";

/** The deploy tool: it asks for an approval, and deploys once an answer comes back. */
export function deployTool(options: {
  description: string;
  /** What the tool says it did with the answer it was given. */
  deployed: (version: string, answer: Answer) => string;
  /** The form the approver fills in, if the example asks for more than yes or no. */
  data?: Record<string, unknown>;
}) {
  return defineTool({
    name: "deploy",
    description: options.description,
    inputSchema: { type: "object", properties: { version: { type: "string" } }, required: ["version"] },
    run: (args, ctx) => {
      if (ctx?.answer) return options.deployed(args.version, ctx.answer);
      return pending({
        kind: "approval",
        prompt: `Deploy ${args.version} to production?`,
        ...(options.data ? { data: options.data } : {}),
        expiresAt: new Date(Date.now() + 60 * 60 * 1000).toISOString(),
      });
    },
  });
}

// A stand-in for a model: it calls the tool once, then reports what the tool said.
const model: typeof fetch = async (_url, init) => {
  const body = JSON.parse(String(init?.body));
  const result = body.messages.find((m: { role: string }) => m.role === "tool");
  const message = result
    ? { role: "assistant", content: `Result: ${result.content}` }
    : {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call-1", type: "function", function: { name: "deploy", arguments: JSON.stringify({ version }) } },
        ],
      };
  const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
  return Response.json({ choices: [{ message }], usage });
};

/** Runs the stubbed model with `tool` until it deploys (or is told no), and prints the outcome. */
export async function runDeploy(options: { tool: ReturnType<typeof deployTool>; waitFor: WaitFor; starting: string }) {
  const client = createClient({
    baseUrl: "http://model.invalid",
    style: "openai",
    model: "stub",
    apiKey: "unused",
    fetch: model,
    waitFor: options.waitFor,
  });
  const toolkit = await createToolkit({ builtins: false, extraTools: [options.tool] });
  console.log(options.starting);
  const result = await client.run(`deploy ${version}`, { toolkit });
  await toolkit.close();
  console.log(result.toolCalls[0]?.output.startsWith("deployed") ? `ok: ${result.text}` : `not deployed: ${result.text}`);
}
