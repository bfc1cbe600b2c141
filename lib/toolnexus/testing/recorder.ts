import { defineTool } from "../define-tool";
import { pending } from "../pending";
import type { Context, Tool } from "../types";

/** Tools that count their executions and keep every ctx they were given. */
export function recorder() {
  const runs: Record<string, number> = {};
  const contexts: Record<string, Array<Context | undefined>> = {};
  const track = (name: string, ctx: Context | undefined) => {
    runs[name] = (runs[name] ?? 0) + 1;
    contexts[name] = [...(contexts[name] ?? []), ctx];
  };
  const approval = (name: string, extra: { url?: string } = {}): Tool =>
    defineTool({
      name,
      description: "needs approval",
      run: (_args, ctx) => {
        track(name, ctx);
        if (!ctx?.answer)
          return pending({ kind: "approval", prompt: `approve ${name}`, id: `req-${name}`, ...extra });
        return `${name} approved by ${String(ctx.answer.data?.by ?? "nobody")}`;
      },
    });
  const plain = (name: string): Tool =>
    defineTool({
      name,
      description: "plain",
      run: (_args, ctx) => {
        track(name, ctx);
        return `${name} ran`;
      },
    });
  return { runs, contexts, approval, plain };
}
