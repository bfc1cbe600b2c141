import { createToolkit, type Toolkit } from "toolnexus";
import { createBookFlightTool } from "./tools/book-flight-tool";
import { createDeployTool } from "./tools/deploy-tool";
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
}): Promise<Toolkit> {
  const clock = options.clock ?? systemClock;
  return createToolkit({
    extraTools: [
      createDeployTool({ clock }),
      createRefundTool({ clock }),
      createBookFlightTool({ clock, userId: options.userId }),
    ],
  });
}
