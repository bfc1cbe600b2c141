import assert from "node:assert"
import { createClient, createToolkit, defineTool, pending } from "toolnexus"

let authed = false
const getBalance = defineTool({
  name: "get_balance",
  description: "Return the account balance. Requires login first.",
  inputSchema: { type: "object", properties: {} },
  run: () => (authed ? "balance: $500" : pending({ kind: "authorization", prompt: "Log in", url: "https://x.com/login" })),
})

const canned: typeof fetch = async (_url, init) => {
  const body = JSON.parse(String((init as any).body))
  const sawToolResult = body.messages.some((m: any) => m.role === "tool")
  const message = sawToolResult
    ? { role: "assistant", content: "Your balance is $500." }
    : { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "get_balance", arguments: "{}" } }] }
  return new Response(JSON.stringify({ choices: [{ message }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }), { status: 200, headers: { "content-type": "application/json" } })
}

const client = createClient({
  apiKey: "test-key",
  baseUrl: "http://stub", style: "openai", model: "m", fetch: canned,
  waitFor: async (request) => { authed = true; return { id: request.id, ok: true } },
})

const tk = await createToolkit({ builtins: false, extraTools: [getBalance] })
const res = await client.run("what is my balance?", { toolkit: tk })

assert.equal(res.status, "done") // waitFor absorbed the suspension entirely — the caller never saw "pending"
assert.match(res.text, /\$500/)

await tk.close()
console.log("ok:", res.text)
