import type { ToolCardData } from "@/lib/domain/chat-message";
import { resultWords } from "@/lib/domain/result-words";

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
          <ToolOutput output={tool.output} />
        </div>
      )}
    </article>
  );
}

/** A result in words; answers given as JSON read as fields, the JSON kept in a fold. */
function ToolOutput({ output }: { output: string }) {
  const words = resultWords(output);
  if (words.kind === "words") return <>{words.text}</>;
  return (
    <>
      <ul className="tool-output-fields">
        {words.lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <details className="tool-output-technical">
        <summary>Technical details</summary>
        <pre>{words.json}</pre>
      </details>
    </>
  );
}
