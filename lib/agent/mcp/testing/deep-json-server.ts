// An MCP server over stdio that sends JSON nested as deeply as a test asks: a tool whose
// result's structuredContent nests `levels` deep, and a tool whose input schema nests 70 deep.
// The protocol's low-level Server, so the schema goes out exactly as written here.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

function nested(levels: number, leaf: Record<string, unknown>): Record<string, unknown> {
  let value = leaf;
  for (let i = 1; i < levels; i += 1) value = { a: value };
  return value;
}

const server = new Server({ name: "deep-json", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    {
      name: "nested",
      description: "Answer with structuredContent nested `levels` deep",
      inputSchema: { type: "object", properties: { levels: { type: "integer" } }, required: ["levels"] },
    },
    {
      name: "deep_schema",
      description: "A tool whose input schema nests 70 deep",
      inputSchema: { type: "object", properties: nested(70, { type: "object" }) },
    },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const levels = Number(request.params.arguments?.levels ?? 1);
  return {
    content: [{ type: "text", text: `nested ${levels}` }],
    structuredContent: nested(levels, { end: true }),
  };
});
await server.connect(new StdioServerTransport());
