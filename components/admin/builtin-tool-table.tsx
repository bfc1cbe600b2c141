"use client";

import { useRouter } from "next/navigation";
import type { BuiltinToolRow } from "@/lib/domain/builtin-tool";
import { type ActionResult, unsentResult } from "@/lib/errors";
import { CellNote } from "./cell-note";
import { useNoteAction } from "./use-note-action";

export type SubmitBuiltinTool = (input: {
  toolName: string;
  enabled: boolean;
}) => Promise<ActionResult<unknown>>;

function stateOf(tool: BuiltinToolRow): string {
  if (!tool.enabled) return "Off";
  return tool.offered ? "On" : "On, but no workspace is configured";
}

/** The switch of one built-in: one button that turns it the other way. */
function SwitchCell({ tool, submit }: { tool: BuiltinToolRow; submit: SubmitBuiltinTool }) {
  const router = useRouter();
  const { note, busy, run } = useNoteAction(async () => {
    const enabled = !tool.enabled;
    const result = await submit({ toolName: tool.name, enabled }).catch(() =>
      unsentResult("The switch could not be saved. Please try again."),
    );
    router.refresh();
    return result.ok
      ? { ok: true, text: enabled ? "Switched on." : "Switched off." }
      : { ok: false, text: result.error.message };
  });
  return (
    <>
      <button
        type="button"
        className="button button-secondary"
        disabled={busy}
        aria-label={`${tool.enabled ? "Switch off" : "Switch on"} ${tool.name}`}
        onClick={() => run()}
      >
        {tool.enabled ? "Switch off" : "Switch on"}
      </button>
      <CellNote note={note} />
    </>
  );
}

export function BuiltinToolTable({ tools, submit }: { tools: BuiltinToolRow[]; submit: SubmitBuiltinTool }) {
  return (
    <div className="admin-table-wrap">
      <table className="admin-table" aria-label="Built-in tools">
        <thead>
          <tr>
            <th scope="col">Tool</th>
            <th scope="col">Works on</th>
            <th scope="col">State</th>
            <th scope="col">Change</th>
          </tr>
        </thead>
        <tbody>
          {tools.map((tool) => (
            <tr key={tool.name} data-builtin={tool.name}>
              <th scope="row">
                <code>{tool.name}</code>
                <div className="muted admin-cell-note">{tool.description}</div>
              </th>
              <td>
                {tool.needsWorkspace ? "the workspace" : tool.name === "webfetch" ? "the web" : "the chat"}
              </td>
              <td>{stateOf(tool)}</td>
              <td>
                <SwitchCell tool={tool} submit={submit} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
