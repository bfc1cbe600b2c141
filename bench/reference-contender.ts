import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Contender } from "./measure-alternating";
import { FINAL_TEXT } from "./stub-llm-server";

// The reference JavaScript port of toolnexus (github muthuishere/toolnexus, `js/`) as an optional
// contender: never part of this repository, loaded from a copy the person running the bench
// points at. Its tool bodies, schema and prompt are the other contenders' (loop-contenders.ts).

export const REFERENCE_DIR_VARIABLE = "REF_TOOLNEXUS_DIR";

/** The port's entry module in `dir` (its `js/` folder): the built `dist/` if there is one, else `src/`. */
export function referenceEntry(dir: string): string {
  for (const entry of ["dist/index.js", "src/index.ts"]) {
    const file = path.resolve(dir, entry);
    if (existsSync(file)) return file;
  }
  throw new Error(
    `${REFERENCE_DIR_VARIABLE}=${dir} holds neither dist/index.js nor src/index.ts: point it at the port's js/ folder`,
  );
}

interface ReferenceScenario {
  prompt: string;
  schema: Record<string, unknown>;
  lookup(value: unknown): string;
}

/** The reference port's client and toolkit around the same stub, checked like every contender. */
export async function referenceContender(
  dir: string,
  baseUrl: string,
  scenario: ReferenceScenario,
): Promise<Contender & { close(): Promise<void> }> {
  // A module this repository has no types for.
  const ref: any = await import(pathToFileURL(referenceEntry(dir)).href);
  const toolkit = await ref.createToolkit({ builtins: false });
  for (const name of ["lookup", "convert"]) {
    toolkit.register(
      ref.defineTool({
        name,
        description: "Trivial tool",
        inputSchema: { ...scenario.schema },
        run: ({ value }: { value: unknown }) => scenario.lookup(value),
      }),
    );
  }
  const client = ref.createClient({ baseUrl, style: "openai", model: "bench", apiKey: "bench", retries: 0 });
  return {
    name: "reference",
    async run() {
      const result = await client.run(scenario.prompt, { toolkit });
      const calls = result.toolCalls as Array<{ isError: boolean }>;
      if (result.text !== FINAL_TEXT || calls.length !== 2 || calls.some((c) => c.isError))
        throw new Error(`bench contender produced a wrong outcome: reference (${result.status})`);
    },
    close: async () => {
      await toolkit.close();
    },
  };
}
