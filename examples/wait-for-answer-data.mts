import assert from "node:assert"
import { createClient, createToolkit, defineTool, pending } from "toolnexus"

const pickEnv = defineTool({
  name: "pick_env",
  description: "Deploy to an environment the user picks",
  inputSchema: { type: "object", properties: {} },
  run: (_args, ctx) => (ctx?.answer ? `deploying to ${ctx.answer.data?.env}` : pending({ kind: "input", prompt: "Which environment?" })),
})

const canned: typeof fetch = async (_url, init) => {
  const body = JSON.parse(String((init as any).body))
  const sawToolResult = body.messages.some((m: any) => m.role === "tool")
  const message = sawToolResult
    ? { role: "assistant", content: "Deployment started." }
    : { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "pick_env", arguments: "{}" } }] }
  return new Response(JSON.stringify({ choices: [{ message }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }), { status: 200, headers: { "content-type": "application/json" } })
}

const client = createClient({
  apiKey: "test-key",
  baseUrl: "http://stub", style: "openai", model: "m", fetch: canned,
  waitFor: async (request) => ({ id: request.id, ok: true, data: { env: "staging" } }), // e.g. read from a Slack reply
})

const tk = await createToolkit({ builtins: false, extraTools: [pickEnv] })
const res = await client.run("deploy it", { toolkit: tk })

assert.match(res.toolCalls[0].output, /deploying to staging/)

await tk.close()
console.log("ok:", res.toolCalls[0].output)
