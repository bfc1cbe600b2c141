"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import {
  needsConfirmationToRunFreely,
  TOOL_POLICIES,
  TOOL_POLICY_LABELS,
  type ToolPolicy,
  type ToolPolicyRow,
} from "@/lib/domain/tool-policy";
import { type ActionResult, unsentResult } from "@/lib/errors";
import { CellNote } from "./cell-note";
import { RunFreelyDialog } from "./run-freely-dialog";
import { useNoteAction } from "./use-note-action";

export type SubmitToolPolicy = (input: {
  toolName: string;
  policy: ToolPolicy | "default";
  confirmed?: boolean;
}) => Promise<ActionResult<unknown>>;

const HINTS = [
  ["readOnlyHint", "read-only"],
  ["destructiveHint", "destructive"],
  ["idempotentHint", "idempotent"],
  ["openWorldHint", "open world"],
] as const;

function AnnotationList({ tool }: { tool: ToolPolicyRow }) {
  const stated = HINTS.filter(([key]) => tool.annotations[key] !== undefined);
  if (stated.length === 0) return <span className="muted">none</span>;
  return (
    <ul className="tool-hints">
      {stated.map(([key, label]) => (
        <li key={key} className={tool.annotations[key] ? "badge" : "badge badge-off"}>
          {tool.annotations[key] ? label : `not ${label}`}
        </li>
      ))}
    </ul>
  );
}

/** The policy select of one tool; "Default" gives it back what its annotations say. */
function PolicyCell({ tool, submit }: { tool: ToolPolicyRow; submit: SubmitToolPolicy }) {
  const router = useRouter();
  const current = tool.isDefault ? "default" : tool.policy;
  const [chosen, setChosen] = useState<ToolPolicy | "default">(current);
  const confirm = useRef<HTMLDialogElement>(null);
  const {
    note,
    busy,
    run: save,
  } = useNoteAction(async (confirmed: boolean) => {
    const result = await submit({ toolName: tool.name, policy: chosen, confirmed }).catch(() =>
      unsentResult("The policy could not be saved. Please try again."),
    );
    const now = chosen === "default" ? TOOL_POLICY_LABELS[tool.defaultPolicy] : TOOL_POLICY_LABELS[chosen];
    router.refresh();
    return result.ok
      ? { ok: true, text: `Saved: ${now.toLowerCase()}.` }
      : { ok: false, text: result.error.message };
  });

  return (
    <>
      <div className="admin-cell-actions">
        <select
          aria-label={`Policy for ${tool.name}`}
          value={chosen}
          disabled={busy}
          onChange={(event) => setChosen(event.target.value as ToolPolicy | "default")}
        >
          <option value="default">Default: {TOOL_POLICY_LABELS[tool.defaultPolicy].toLowerCase()}</option>
          {TOOL_POLICIES.map((policy) => (
            <option key={policy} value={policy}>
              {TOOL_POLICY_LABELS[policy]}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="button button-secondary"
          disabled={busy || chosen === current}
          onClick={() =>
            chosen === "free" && needsConfirmationToRunFreely(tool)
              ? confirm.current?.showModal()
              : save(false)
          }
        >
          Save
        </button>
      </div>
      <RunFreelyDialog ref={confirm} tool={tool} onConfirm={() => save(true)} />
      <span className="admin-cell-note muted">
        {tool.isDefault ? "Default, from its annotations" : "Set by an admin"}
        {tool.scope && tool.policy !== "blocked" && tool.policy !== "free"
          ? `; asks only for ${tool.scope}`
          : ""}
      </span>
      <CellNote note={note} />
    </>
  );
}

export function ToolPolicyTable({ tools, submit }: { tools: ToolPolicyRow[]; submit: SubmitToolPolicy }) {
  if (tools.length === 0) return <p className="muted">The agent has no tools.</p>;
  return (
    <div className="admin-table-wrap">
      <table className="admin-table" aria-label="Tool policies">
        <thead>
          <tr>
            <th scope="col">Tool</th>
            <th scope="col">Source</th>
            <th scope="col">Annotations</th>
            <th scope="col">Effective policy</th>
            <th scope="col">Change</th>
          </tr>
        </thead>
        <tbody>
          {tools.map((tool) => (
            <tr key={tool.name} data-tool={tool.name}>
              <th scope="row">
                <code>{tool.name}</code>
                {tool.title !== tool.name && <div>{tool.title}</div>}
                <div className="muted admin-cell-note">{tool.description}</div>
              </th>
              <td>
                <code>{tool.source}</code>
              </td>
              <td>
                <AnnotationList tool={tool} />
              </td>
              <td>
                {TOOL_POLICY_LABELS[tool.policy]}
                {tool.isDefault && <span className="muted"> (default)</span>}
              </td>
              <td>
                <PolicyCell tool={tool} submit={submit} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
