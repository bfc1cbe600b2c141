import { createQuestionTool, createToolkit, type Tool } from "toolnexus";
import type { ApprovalProfiles } from "@/lib/agent/policy/approval-profile";
import { createDbPolicyStore } from "@/lib/agent/policy/db-policy-store";
import { type GatedToolkit, gateToolkit } from "@/lib/agent/policy/gate-toolkit";
import { listEnabledBuiltins } from "@/lib/db/builtin-tools";
import type { DbClient } from "@/lib/db/db-types";
import { appBuiltinOptions, BUILTIN_APPROVAL_PROFILES, createAppBuiltins } from "./builtins/app-builtins";
import { BOOK_FLIGHT_APPROVAL, createBookFlightTool } from "./tools/book-flight-tool";
import { createDeployTool, DEPLOY_APPROVAL } from "./tools/deploy-tool";
import { createGetBalanceTool, isBalanceProviderConfigured } from "./tools/get-balance-tool";
import { createRefundTool, REFUND_APPROVAL } from "./tools/refund-tool";
import { type Clock, expiresIn, HOUR_MS, systemClock } from "./tools/tool-clock";
import { withExpiry } from "./tools/with-expiry";

/** How long a question to the user stays open, like the flight form. */
const QUESTION_TTL_MS = HOUR_MS;

/** How long an approval the policy asks for stays open. */
export const APPROVAL_TTL_MS = 24 * HOUR_MS;

/** What the demo tools tell the approval gate beyond their annotations. */
export const DEMO_APPROVAL_PROFILES: ApprovalProfiles = {
  deploy: DEPLOY_APPROVAL,
  refund: REFUND_APPROVAL,
  book_flight: BOOK_FLIGHT_APPROVAL,
  ...BUILTIN_APPROVAL_PROFILES,
};

/** The app's own tools, before the approval gate; `/admin/tools` lists them from here too. */
export function createDemoTools(options: { clock: Clock; userId: string; balance: boolean }): Tool[] {
  const { clock, userId } = options;
  return [
    // Asking the user changes nothing anywhere.
    {
      ...withExpiry(createQuestionTool(), { clock, ttlMs: QUESTION_TTL_MS }),
      annotations: { title: "Ask the user", readOnlyHint: true, openWorldHint: false },
    },
    createDeployTool(),
    createRefundTool(),
    createBookFlightTool({ clock, userId }),
    ...(options.balance ? [createGetBalanceTool({ clock, userId })] : []),
  ];
}

/**
 * The tools one run may call, behind the approval gate. Built per run so a tool can be scoped
 * to its user and the gate to its chat; the built-in `question` tool is kept, with an expiry
 * added. MCP tools come from the process's shared pool (connections outlive the run), after
 * the app's own tools and the built-ins an admin switched on: a name already taken is skipped
 * rather than breaking the run. With `db` the admins' policies, switches and the chat's
 * allowances apply; without it (plain library tests) every tool runs under its default and no
 * built-in is on. Closing the toolkit when the run parks or ends leaves the pool's
 * connections open.
 */
export async function createAgentToolkit(options: {
  userId: string;
  runId: string;
  threadId?: string;
  db?: DbClient;
  clock?: Clock;
  /** `get_balance` needs the Demo Bank provider; on by default whenever it is configured. */
  balance?: boolean;
  /** Tools of the connected MCP servers. */
  mcpTools?: Tool[];
  /** The built-ins switched on; read from `db` when not given. */
  builtins?: ReadonlySet<string>;
}): Promise<GatedToolkit> {
  const clock = options.clock ?? systemClock;
  const balance = options.balance ?? isBalanceProviderConfigured();
  const own = createDemoTools({ clock, userId: options.userId, balance });
  const enabled =
    options.builtins ?? (options.db ? await listEnabledBuiltins({ db: options.db }) : new Set());
  const host = createAppBuiltins(enabled, enabled.size === 0 ? {} : appBuiltinOptions());
  const taken = new Set([...own, ...host].map((tool) => tool.name));
  const remote = (options.mcpTools ?? []).filter((tool) => !taken.has(tool.name));
  // The library's built-ins are off (the chat asks its questions through its own tool); those
  // that act on the host (shell, files, fetching) run only when an admin switched them on.
  const toolkit = await createToolkit({ builtins: false, extraTools: [...own, ...host, ...remote] });
  return gateToolkit(toolkit, {
    ...(options.db ? { store: createDbPolicyStore({ db: options.db }) } : {}),
    ...(options.threadId ? { thread: { threadId: options.threadId, ownerId: options.userId } } : {}),
    runId: options.runId,
    profiles: DEMO_APPROVAL_PROFILES,
    approvalExpiresAt: () => expiresIn(clock, APPROVAL_TTL_MS),
  });
}
