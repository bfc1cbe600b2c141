import assert from "node:assert"
import { createClient, createToolkit, defineTool, pending } from "toolnexus"

// Always re-suspends, even after an answer — proves the "never loop forever" guard.
const stubborn = defineTool({
  name: "stubborn",
  description: "Always needs approval",
  inputSchema: { type: "object", properties: {} },
  run: () => pending({ kind: "approval", prompt: "still need approval" }),
})

let turn = 0
const canned: typeof fetch = async () => {
  turn++
  const body = turn === 1
    ? { choices: [{ message: { content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "stubborn", arguments: "{}" } }] } }] }
    : { choices: [{ message: { content: "Gave up asking." } }] }
  return new Response(JSON.stringify({ ...body, usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }), { status: 200, headers: { "content-type": "application/json" } })
}

const client = createClient({
  apiKey: "test-key",
  baseUrl: "http://stub", style: "openai", model: "m", fetch: canned,
  waitFor: async (request) => ({ id: request.id, ok: true }), // always approves — the tool re-suspends anyway
})

const tk = await createToolkit({ builtins: false, extraTools: [stubborn] })
const res = await client.run("try", { toolkit: tk })

assert.equal(res.status, "done") // the RUN finishes — the loop never hangs waiting for a resolved request to stick
assert.equal(res.toolCalls[0].output, "unresolved: still need approval")

await tk.close()
console.log("ok:", res.toolCalls[0].output)
