import path from "node:path";
import { type BuiltinToolsOptions, createBuiltinTools, type Tool } from "toolnexus";
import type { BuiltinToolRow } from "@/lib/domain/builtin-tool";
import { outboundPrivateAllowed } from "@/lib/http/outbound-address";
import { describeOutboundFailure } from "@/lib/http/outbound-failure";
import { createOutboundFetch } from "@/lib/http/outbound-fetch";
import type { ApprovalProfiles } from "../policy/approval-profile";

/** The directory the file built-ins and `bash` work in; without it they cannot be switched on. */
export const WORKSPACE_VARIABLE = "TOOLNEXUS_WORKSPACE";

/**
 * The library's built-ins an admin may switch on at /admin/tools, in the order the page lists
 * them. `question` is not among them: the chat asks its user through the app's own tool.
 */
export const APP_BUILTINS = [
  "bash",
  "read",
  "write",
  "edit",
  "apply_patch",
  "glob",
  "grep",
  "webfetch",
  "todowrite",
] as const;

export type AppBuiltinName = (typeof APP_BUILTINS)[number];

export function isAppBuiltin(name: string): name is AppBuiltinName {
  return (APP_BUILTINS as readonly string[]).includes(name);
}

/** The built-ins that touch the server's files: useless, and unsafe, without a workspace. */
const NEEDS_WORKSPACE: ReadonlySet<string> = new Set([
  "bash",
  "read",
  "write",
  "edit",
  "apply_patch",
  "glob",
  "grep",
]);

export function needsWorkspace(name: string): boolean {
  return NEEDS_WORKSPACE.has(name);
}

/** The configured workspace as an absolute path, or undefined when none is set. */
export function builtinWorkspace(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env[WORKSPACE_VARIABLE]?.trim();
  return value ? path.resolve(value) : undefined;
}

function text(args: Record<string, unknown>, name: string): string {
  const value = args[name];
  return typeof value === "string" ? value : "";
}

/**
 * What the approval gate knows of the built-ins that change things: a reviewer approves each
 * call unless an admin chooses otherwise, and the reviewer reads what exactly would run.
 */
export const BUILTIN_APPROVAL_PROFILES: ApprovalProfiles = {
  bash: {
    defaultPolicy: "reviewer",
    prompt: (args) => `Run in a shell on the server: ${text(args, "command")}`,
    summary: "Run {command} in a shell on the server",
  },
  write: {
    defaultPolicy: "reviewer",
    prompt: (args) => `Write the file ${text(args, "path")} in the workspace`,
    summary: "Write the file {path} in the workspace",
  },
  edit: {
    defaultPolicy: "reviewer",
    prompt: (args) => `Edit the file ${text(args, "path")} in the workspace`,
    summary: "Edit the file {path} in the workspace",
  },
  apply_patch: { defaultPolicy: "reviewer", prompt: () => "Apply a patch to the workspace's files" },
};

/**
 * webfetch connects through the one outbound address policy (ADR 0056), so a model cannot reach
 * this machine or the private network unless the deployment allows it for everything. A refusal
 * reaches the model as the policy's one line, naming no address.
 */
export function createWebfetchFetch(options: { allowPrivate: boolean }): typeof fetch {
  const guarded = createOutboundFetch(options);
  return (async (input: string | URL | Request, init?: RequestInit) => {
    try {
      return await guarded(input instanceof Request ? input.url : input, init);
    } catch (error) {
      throw new Error(describeOutboundFailure(error));
    }
  }) as typeof fetch;
}

/** One connection pool for the process. */
let outbound: typeof fetch | undefined;

/** The options the app gives the library's built-ins: its workspace and its outbound fetch. */
export function appBuiltinOptions(
  options: { workspace?: string; fetch?: typeof fetch } = {},
): BuiltinToolsOptions {
  const workspace = options.workspace ?? builtinWorkspace();
  outbound ??= createWebfetchFetch({ allowPrivate: outboundPrivateAllowed() });
  return {
    webfetchFetch: options.fetch ?? outbound,
    ...(workspace === undefined ? {} : { workspace }),
  };
}

/** `bash` starts in the workspace unless the call names a directory; it is not confined to it. */
function startInWorkspace(tool: Tool, workspace: string): Tool {
  return {
    ...tool,
    execute: (args, ctx) =>
      tool.execute(typeof args.workdir === "string" ? args : { ...args, workdir: workspace }, ctx),
  };
}

/**
 * The built-ins an admin switched on, as the library makes them with the app's options. One that
 * needs a workspace is left out while none is configured, whatever the switch says.
 */
export function createAppBuiltins(enabled: ReadonlySet<string>, options: BuiltinToolsOptions): Tool[] {
  if (enabled.size === 0) return [];
  const { workspace } = options;
  return createBuiltinTools(options)
    .filter((tool) => isAppBuiltin(tool.name) && enabled.has(tool.name))
    .filter((tool) => workspace !== undefined || !needsWorkspace(tool.name))
    .map((tool) =>
      tool.name === "bash" && workspace !== undefined ? startInWorkspace(tool, workspace) : tool,
    );
}

/** Every built-in an admin may switch on, with its switch, for the admin page. */
export function describeAppBuiltins(
  enabled: ReadonlySet<string>,
  workspace: string | undefined,
): BuiltinToolRow[] {
  const descriptions = new Map(createBuiltinTools().map((tool) => [tool.name, tool.description]));
  return APP_BUILTINS.map((name) => {
    const on = enabled.has(name);
    const needs = needsWorkspace(name);
    return {
      name,
      description: descriptions.get(name) ?? "",
      enabled: on,
      needsWorkspace: needs,
      offered: on && (!needs || workspace !== undefined),
    };
  });
}
