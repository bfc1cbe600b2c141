import { createToolkit, type Toolkit } from "toolnexus";
import { createBookFlightTool } from "./tools/book-flight-tool";
import { createDeployTool } from "./tools/deploy-tool";
import { createGetBalanceTool, isBalanceProviderConfigured } from "./tools/get-balance-tool";
import { createRefundTool } from "./tools/refund-tool";
import { type Clock, systemClock } from "./tools/tool-clock";

/**
 * The tools one run may call. Built per run so a tool can be scoped to its user; the built-in
 * `question` tool stays on. The caller closes the toolkit when the run parks or ends.
 */
export async function createAgentToolkit(options: {
  userId: string;
  runId: string;
  clock?: Clock;
  /** `get_balance` needs the Demo Bank provider; on by default whenever it is configured. */
  balance?: boolean;
}): Promise<Toolkit> {
  const clock = options.clock ?? systemClock;
  const balance = options.balance ?? isBalanceProviderConfigured();
  return createToolkit({
    extraTools: [
      createDeployTool({ clock }),
      createRefundTool({ clock }),
      createBookFlightTool({ clock, userId: options.userId }),
      ...(balance ? [createGetBalanceTool({ clock, userId: options.userId })] : []),
    ],
  });
}
