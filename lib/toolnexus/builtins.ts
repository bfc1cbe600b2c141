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

/** Every built-in tool, each a fresh instance with `source: "builtin"`. */
export function createBuiltinTools(): Tool[] {
  return [createQuestionTool()];
}

/** The built-ins a config leaves on; names the map does not know are ignored. */
export function selectBuiltins(config: BuiltinsConfig | undefined): Tool[] {
  if (!builtinsEnabled(config)) return [];
  const perTool = typeof config === "object" ? config.tools : undefined;
  const all = createBuiltinTools();
  return perTool ? all.filter((tool) => perTool[tool.name] !== false) : all;
}
