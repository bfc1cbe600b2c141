// An agent outside the app whose deploy tool waits for a reviewer in the web inbox.
//
//   TOOLNEXUS_URL=http://localhost:3000 TOOLNEXUS_TOKEN=tnx_… npx tsx examples/inbox/deploy-approval.mts
//
// Make the token at /settings/tokens (both scopes), then approve "Deploy v1.4 to production?"
// as a reviewer in the inbox (rita@example.com in the demo). Stop the script or the app while it
// waits and start it again: it finds its request again instead of asking twice, and picks up
// the answer. The model is stubbed, so no API key is needed.
import { createClient, createInboxWaitFor, createToolkit, defineTool, pending } from "toolnexus";

const baseUrl = process.env.TOOLNEXUS_URL ?? "http://localhost:3000";
const token = process.env.TOOLNEXUS_TOKEN;
if (!token) {
  console.error("Set TOOLNEXUS_TOKEN to a token from /settings/tokens.");
  process.exit(2);
}
const version = process.env.DEPLOY_VERSION ?? "v1.4";

const deploy = defineTool({
  name: "deploy",
  description: "Deploy a version to production once a reviewer approved it",
  inputSchema: { type: "object", properties: { version: { type: "string" } }, required: ["version"] },
  run: (args, ctx) => {
    if (ctx?.answer) return `deployed ${args.version} (note: ${ctx.answer.data?.note ?? "none"})`;
    return pending({
      kind: "approval",
      prompt: `Deploy ${args.version} to production?`,
      data: { schema: { type: "object", properties: { note: { type: "string", title: "Note" } } } },
      expiresAt: new Date(Date.now() + 60 * 60 * 1000).toISOString(),
    });
  },
});

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

const client = createClient({
  baseUrl: "http://model.invalid",
  style: "openai",
  model: "stub",
  apiKey: "unused",
  fetch: model,
  waitFor: createInboxWaitFor({
    baseUrl,
    token,
    // One approval per deploy of a version: a restarted run of this job finds its request again.
    scope: `deploy ${version}`,
    onRetry: ({ attempt, delayMs }) => console.log(`inbox unreachable (attempt ${attempt}); retrying in ${delayMs} ms`),
  }),
});

const toolkit = await createToolkit({ builtins: false, extraTools: [deploy] });
console.log(`waiting for a reviewer at ${baseUrl}/inbox`);
const result = await client.run(`deploy ${version}`, { toolkit });
await toolkit.close();
console.log(result.toolCalls[0]?.output.startsWith("deployed") ? `ok: ${result.text}` : `not deployed: ${result.text}`);
