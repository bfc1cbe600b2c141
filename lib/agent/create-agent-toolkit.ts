import { createQuestionTool, createToolkit, type Tool, type Toolkit } from "toolnexus";
import { createBookFlightTool } from "./tools/book-flight-tool";
import { createDeployTool } from "./tools/deploy-tool";
import { createGetBalanceTool, isBalanceProviderConfigured } from "./tools/get-balance-tool";
import { createRefundTool } from "./tools/refund-tool";
import { type Clock, HOUR_MS, systemClock } from "./tools/tool-clock";
import { withExpiry } from "./tools/with-expiry";

/** How long a question to the user stays open, like the flight form. */
const QUESTION_TTL_MS = HOUR_MS;

/**
 * The tools one run may call. Built per run so a tool can be scoped to its user; the built-in
 * `question` tool is kept, with an expiry added. MCP tools come from the process's shared pool
 * (connections outlive the run), after the app's own tools: a name already taken is skipped
 * rather than breaking the run. Closing the toolkit when the run parks or ends leaves the
 * pool's connections open.
 */
export async function createAgentToolkit(options: {
  userId: string;
  runId: string;
  clock?: Clock;
  /** `get_balance` needs the Demo Bank provider; on by default whenever it is configured. */
  balance?: boolean;
  /** Tools of the connected MCP servers. */
  mcpTools?: Tool[];
}): Promise<Toolkit> {
  const clock = options.clock ?? systemClock;
  const balance = options.balance ?? isBalanceProviderConfigured();
  const own = [
    withExpiry(createQuestionTool(), { clock, ttlMs: QUESTION_TTL_MS }),
    createDeployTool({ clock }),
    createRefundTool({ clock }),
    createBookFlightTool({ clock, userId: options.userId }),
    ...(balance ? [createGetBalanceTool({ clock, userId: options.userId })] : []),
  ];
  const taken = new Set(own.map((tool) => tool.name));
  const remote = (options.mcpTools ?? []).filter((tool) => !taken.has(tool.name));
  return createToolkit({ tools: { question: false }, extraTools: [...own, ...remote] });
}
