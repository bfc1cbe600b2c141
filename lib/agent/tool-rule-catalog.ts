import type { Tool } from "toolnexus";
import { createAgentToolkit } from "./create-agent-toolkit";
import type { CallFacts } from "./policy/rule-conditions";
import { toolFacts } from "./policy/rule-verdict";

/**
 * What a rule's condition reads as `tool` for one of the agent's tools, from the very toolkit a
 * run gets (so "try it" sees the tool exactly as a call would); undefined for a name it lacks.
 */
export async function agentToolFacts({
  userId,
  mcpTools,
  toolName,
}: {
  userId: string;
  mcpTools: Tool[];
  toolName: string;
}): Promise<CallFacts["tool"] | undefined> {
  const toolkit = await createAgentToolkit({ userId, runId: "tool-rules", mcpTools });
  try {
    const tool = toolkit.tools().find((candidate) => candidate.name === toolName);
    return tool ? toolFacts(tool) : undefined;
  } finally {
    await toolkit.close();
  }
}
