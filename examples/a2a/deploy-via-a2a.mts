// Agent A: its deploy tool forwards the approval to agent B over A2A, and B is this app, where a
// reviewer answers in the inbox.
//
//   TOOLNEXUS_URL=http://localhost:3000 TOOLNEXUS_A2A_TOKEN=tnx_… npx tsx examples/a2a/deploy-via-a2a.mts
//
// The token is a personal API token with the `a2a` scope (/settings/tokens). The model of agent A
// is stubbed, so no API key is needed. See examples/a2a/README.md.
import { createA2AWaitFor, createClient, createToolkit, defineTool, pending } from "toolnexus";

const baseUrl = process.env.TOOLNEXUS_URL ?? "http://localhost:3000";
if (!process.env.TOOLNEXUS_A2A_TOKEN) {
  console.error("Set TOOLNEXUS_A2A_TOKEN to a token with the a2a scope from /settings/tokens.");
  process.exit(2);
}
const version = process.env.DEPLOY_VERSION ?? "v1.4";

const deploy = defineTool({
  name: "deploy",
  description: "Deploy a version to production once agent B approved it",
  inputSchema: { type: "object", properties: { version: { type: "string" } }, required: ["version"] },
  run: (args, ctx) => {
    // B's finished task is the answer: its data part, or its text as `{ text }`.
    if (ctx?.answer) return `deployed ${args.version} (B said: ${JSON.stringify(ctx.answer.data ?? {})})`;
    return pending({
      kind: "approval",
      prompt: `Deploy ${args.version} to production?`,
      expiresAt: new Date(Date.now() + 60 * 60 * 1000).toISOString(),
    });
  },
});

// A stand-in for agent A's model: it calls the tool once, then reports what the tool said.
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

const client = createClient({
  baseUrl: "http://model.invalid",
  style: "openai",
  model: "stub",
  apiKey: "unused",
  fetch: model,
  waitFor: createA2AWaitFor({
    agentCardUrl: `${baseUrl}/.well-known/agent-card.json`,
    // Read from the environment at every call; never printed.
    headers: { Authorization: "Bearer ${TOOLNEXUS_A2A_TOKEN}" },
    // B shows input-required while its reviewer decides: keep waiting for B's inbox.
    onInputRequired: "wait",
    // One task per deploy of a version: a restarted run of this job finds its task again.
    scope: `deploy ${version}`,
    pollEveryMs: 2000,
  }),
});

const toolkit = await createToolkit({ builtins: false, extraTools: [deploy] });
console.log(`asking agent B at ${baseUrl}; approve in ${baseUrl}/inbox`);
const result = await client.run(`deploy ${version}`, { toolkit });
await toolkit.close();
console.log(result.toolCalls[0]?.output.startsWith("deployed") ? `ok: ${result.text}` : `not deployed: ${result.text}`);
