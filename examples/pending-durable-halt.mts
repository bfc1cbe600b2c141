import assert from "node:assert"
import { createClient, createToolkit, defineTool, pending } from "toolnexus"

const a = defineTool({ name: "a", description: "d", inputSchema: { type: "object", properties: {} }, run: () => pending({ kind: "approval", prompt: "approve a" }) })
const b = defineTool({ name: "b", description: "d", inputSchema: { type: "object", properties: {} }, run: () => pending({ kind: "approval", prompt: "approve b" }) })

const canned: typeof fetch = async () =>
  new Response(JSON.stringify({
    choices: [{ message: { content: null, tool_calls: [
      { id: "c-a", type: "function", function: { name: "a", arguments: "{}" } },
      { id: "c-b", type: "function", function: { name: "b", arguments: "{}" } },
    ] } }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  }), { status: 200, headers: { "content-type": "application/json" } })

const client = createClient({ apiKey: "test-key", baseUrl: "http://stub", style: "openai", model: "m", fetch: canned }) // no waitFor
const tk = await createToolkit({ builtins: false, extraTools: [a, b] })

const res = await client.run("do a and b", { toolkit: tk })

assert.equal(res.status, "pending")
assert.equal(res.pending?.prompt, "approve a") // deterministic: first in tool-call order
assert.deepEqual(res.toolCalls.map((c) => c.name), ["a"]) // "b" never entered the transcript

await tk.close()
console.log("ok:", res.status, "|", res.pending?.prompt)
