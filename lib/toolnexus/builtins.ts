import { applyPatchTool } from "./builtin-tools/apply-patch";
import { editTool, readTool, writeTool } from "./builtin-tools/files";
import { bashTool, todowriteTool } from "./builtin-tools/misc";
import { globTool, grepTool } from "./builtin-tools/search";
import { type AddressGuard, webfetchTool } from "./builtin-tools/webfetch";
import { confineTo, UNCONFINED } from "./builtin-tools/workspace";
import { createQuestionTool } from "./question-tool";
import type { Tool } from "./types";

/**
 * Which built-in tools a toolkit offers. On by default; `false`, `{ disabled: true }` or
 * `{ enabled: false }` switch the whole set off (in that precedence, as an MCP server's
 * `enabled`/`disabled` do); `tools` maps single names to `false` to leave them out.
 */
export type BuiltinsConfig =
  | boolean
  | { enabled?: boolean; disabled?: boolean; tools?: Record<string, boolean> };

export function builtinsEnabled(config: BuiltinsConfig | undefined): boolean {
  if (config === undefined) return true;
  if (typeof config === "boolean") return config;
  if (config.disabled === true) return false;
  return config.enabled !== false;
}

export type { AddressGuard } from "./builtin-tools/webfetch";

export interface BuiltinToolsOptions {
  /** Where webfetch may go (every redirect hop included); by default anywhere. */
  webfetchGuard?: AddressGuard;
  /** How webfetch fetches; a host's own fetch can hold its outbound-address policy. */
  webfetchFetch?: typeof fetch;
  /**
   * A directory the file built-ins (read, write, edit, apply_patch, glob, grep) are confined to:
   * relative paths start there, and a path that leaves it, symbolic links followed, is refused.
   * Without it they take paths as given, as in the reference port. `bash` is not confined.
   */
  workspace?: string;
}

/**
 * Every built-in tool, each a fresh instance with `source: "builtin"`. `bash`, `write`, `edit`,
 * `apply_patch` and `webfetch` act on the host this runs on: a host serving other people offers
 * them only under its own rules.
 */
export function createBuiltinTools(options: BuiltinToolsOptions = {}): Tool[] {
  const gate = options.workspace === undefined ? UNCONFINED : confineTo(options.workspace);
  return [
    bashTool(),
    readTool(gate),
    writeTool(gate),
    editTool(gate),
    grepTool(gate),
    globTool(gate),
    webfetchTool(options.webfetchGuard, options.webfetchFetch),
    createQuestionTool(),
    applyPatchTool(gate),
    todowriteTool(),
  ];
}

/** The built-ins a config leaves on; names the map does not know are ignored. */
export function selectBuiltins(
  config: BuiltinsConfig | undefined,
  options: BuiltinToolsOptions = {},
): Tool[] {
  if (!builtinsEnabled(config)) return [];
  const perTool = typeof config === "object" ? config.tools : undefined;
  const all = createBuiltinTools(options);
  return perTool ? all.filter((tool) => perTool[tool.name] !== false) : all;
}
