// The project's demo MCP server (a ticket tracker) as toolkit tools: its open_ticket asks for
// the missing details through an MCP elicitation, which parks the run like any other request.
// Run from the repository root: npx tsx examples/mcp-tracker.mts
import assert from "node:assert"
import { createInProcessClient, createToolkit } from "toolnexus"

const toolkit = await createToolkit({
  builtins: false,
  mcpConfig: { mcpServers: { tracker: { command: process.execPath, args: ["--import", "tsx", "scripts/demo-mcp-server.ts"] } } },
})
assert.equal(toolkit.mcpStatus().tracker, "connected")
assert.equal(toolkit.tools().find((t) => t.name === "tracker_delete_ticket")?.annotations?.destructiveHint, true)

// A stand-in model: open a ticket, then repeat what the tool said.
const client = createInProcessClient({
  model: "stub",
  generate: ({ messages }) => {
    const last = messages.at(-1)
    return last?.role === "tool" ? { content: String(last.content) } : { toolCalls: [{ name: "tracker_open_ticket", arguments: {} }] }
  },
})

const halted = await client.run("open a ticket", { toolkit }) // no waitFor: the run parks
assert.equal(halted.status, "pending")
assert.equal(halted.pending?.kind, "input") // a form elicitation; its schema is in data.schema
assert.deepEqual((halted.pending?.data?.schema as { required: string[] }).required, ["title", "priority"])

// The host stores the checkpoint as JSON; the answer completes the same MCP tool call.
const stored = JSON.parse(JSON.stringify(halted.checkpoint))
const answer = { id: halted.pending!.id, ok: true, data: { title: "Printer on fire", priority: "high" } }
const done = await client.resume(stored, answer, { toolkit })
assert.equal(done.status, "done")
assert.match(done.text, /^Opened #8 \[open\] \(high\) Printer on fire/)

await toolkit.close()
console.log("ok:", done.text.split("\n")[0])
