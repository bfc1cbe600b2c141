import assert from "node:assert"
import { pending } from "toolnexus"

const res = pending({ kind: "input", prompt: "Which environment — staging or prod?" })

assert.equal(res.isError, true) // a parked call did not produce an answer
assert.ok(res.metadata?.pending, "the Request rides on metadata.pending")
const req = res.metadata!.pending as any
assert.equal(req.kind, "input")
assert.ok(req.id.startsWith("pnd-"), "an id is generated when you don't supply one")
assert.equal(res.output, req.prompt) // output falls back to prompt (+\n+url when a url is set)

console.log("ok:", req.id, "|", res.output)
