import { builtinWorkspace, describeAppBuiltins } from "@/lib/agent/builtins/app-builtins";
import { listEnabledBuiltins } from "@/lib/db/builtin-tools";
import type { DbClient } from "@/lib/db/db-types";
import { AdminBuiltinToolTable } from "./admin-builtin-tool-table";

/**
 * The library's built-ins that act on the server: off until an admin switches one on, then
 * offered to every chat under its approval policy (listed with the others below). A switch is
 * recorded in the audit log.
 */
export async function BuiltinToolsSection({ db }: { db: DbClient }) {
  const workspace = builtinWorkspace();
  const tools = describeAppBuiltins(await listEnabledBuiltins({ db }), workspace);
  return (
    <section className="stack" aria-labelledby="builtin-tools-title">
      <h2 id="builtin-tools-title">Built-in tools</h2>
      <p className="muted">
        These tools run on this server. They are off until you switch one on; then every chat is offered it
        under its approval policy below. By default a reviewer approves each call of bash, write, edit and
        apply_patch. File tools and bash work in the workspace{" "}
        {workspace ? (
          <code>{workspace}</code>
        ) : (
          "(no folder is set up for them yet: whoever runs this server chooses one)"
        )}
        ; file tools refuse paths outside it, bash only starts there. webfetch reaches only the addresses
        webhooks may.
      </p>
      <AdminBuiltinToolTable tools={tools} />
    </section>
  );
}
