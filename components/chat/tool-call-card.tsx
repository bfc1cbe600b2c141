import type { ToolCardData } from "@/lib/domain/chat-message";

const stateLabel: Record<ToolCardData["state"], string> = {
  running: "running",
  waiting: "waiting for an answer",
  done: "done",
  error: "error",
  cancelled: "cancelled",
};

/** A compact card for one tool call: name, arguments, and the result or error once known. */
export function ToolCallCard({ tool }: { tool: ToolCardData }) {
  return (
    <article className={`tool-card tool-card-${tool.state}`} aria-label={`Tool call ${tool.name}`}>
      <header>
        <code>{tool.name}</code> <span className="badge">{stateLabel[tool.state]}</span>
      </header>
      <details>
        <summary>Arguments</summary>
        <pre>{JSON.stringify(tool.args, null, 2)}</pre>
      </details>
      {tool.output !== undefined && tool.state !== "waiting" && (
        <div className={tool.state === "error" ? "tool-output tool-output-error" : "tool-output"}>
          <span className="visually-hidden">{tool.state === "error" ? "Error:" : "Result:"}</span>
          {tool.output}
        </div>
      )}
    </article>
  );
}
