import { z } from "zod";
import { defineAction } from "@/app/_lib/define-action";
import { headersRecord, remoteServerInput } from "@/lib/agent/mcp/remote-server-input";
import { sealClientSecret, sealServerHeaders } from "@/lib/agent/mcp/server-headers";
import type { DbClient } from "@/lib/db/db-types";
import {
  createMcpServer,
  deleteMcpServerById,
  mcpServerExistsById,
  setMcpServerDisabledById,
} from "@/lib/db/mcp-servers";
import { AppError } from "@/lib/errors";
import { outboundUrlProblem } from "@/lib/http/outbound-address";
import type { SecretKeys } from "@/lib/oauth/secret-keys";

export interface McpServerDeps {
  db: DbClient;
  keys: () => Pick<SecretKeys, "encryption">;
  /** Names the config file already uses; an admin's server may not shadow one. */
  configNames: () => Promise<string[]>;
  /** The library's check of one server entry (throws naming the field). */
  checkEntry: (name: string, entry: unknown) => unknown;
  /** Whether servers on this machine or a private network are allowed (ADR 0056). */
  allowPrivate: boolean;
}

/**
 * An admin adds a remote server. Only a URL and headers can be given here, never a command:
 * nobody can make the app start a process from a browser. Header values are sealed at once and
 * never read back to a page.
 */
export const addRemoteServer = defineAction(
  { role: "admin", input: remoteServerInput },
  async ({ actor, input: server }, deps: McpServerDeps): Promise<{ id: string; name: string }> => {
    // Refused here so the admin hears why at once; every connection checks the address it uses.
    const addressProblem = outboundUrlProblem(server.url, deps.allowPrivate);
    if (addressProblem)
      throw new AppError("bad_request:input", {
        message: addressProblem,
        issues: [{ path: "/url", message: addressProblem }],
      });
    const headers = headersRecord(server);
    const oauth = server.oauth;
    const oauthEntry = oauth
      ? {
          ...(oauth.clientId ? { clientId: oauth.clientId } : {}),
          ...(oauth.clientSecret ? { clientSecret: oauth.clientSecret } : {}),
          ...(oauth.scope ? { scope: oauth.scope } : {}),
        }
      : undefined;
    try {
      deps.checkEntry(server.name, {
        url: server.url,
        ...(server.headers.length > 0 ? { headers } : {}),
        ...(oauthEntry ? { oauth: oauthEntry } : {}),
      });
    } catch (error) {
      throw new AppError("bad_request:input", {
        message: error instanceof Error ? error.message : "The server's settings are not valid.",
      });
    }
    if ((await deps.configNames()).includes(server.name)) throw new AppError("conflict:mcp_server_name");
    const created = await createMcpServer({
      db: deps.db,
      server: {
        name: server.name,
        url: server.url,
        headerNames: server.headers.map((header) => header.name),
        headersEnc: sealServerHeaders(server.name, headers, deps.keys()),
        ...(oauth
          ? {
              oauth: {
                clientId: oauth.clientId || null,
                clientSecretEnc: oauth.clientSecret
                  ? sealClientSecret(server.name, oauth.clientSecret, deps.keys())
                  : null,
                scope: oauth.scope || null,
              },
            }
          : {}),
      },
      actorId: actor.id,
    });
    if (created.outcome === "name_taken") throw new AppError("conflict:mcp_server_name");
    return { id: created.id, name: server.name };
  },
);

const serverToggleInput = z.object({ id: z.string().min(1).max(64), disabled: z.boolean() }).strict();

/** Switches a remote server off (its tools leave the next run) or back on. */
export const setRemoteServerDisabled = defineAction(
  { role: "admin", input: serverToggleInput },
  async ({ actor, input: { id, disabled } }, { db }: Pick<McpServerDeps, "db">) => {
    const changed = await setMcpServerDisabledById({ db, id, disabled, actorId: actor.id });
    if (!changed && !(await mcpServerExistsById({ db, id }))) throw new AppError("not_found:mcp_server");
    return { id, disabled, changed };
  },
);

const serverIdInput = z.object({ id: z.string().min(1).max(64) }).strict();

export const removeRemoteServer = defineAction(
  { role: "admin", input: serverIdInput },
  async ({ actor, input: { id } }, { db }: Pick<McpServerDeps, "db">) => {
    if (!(await deleteMcpServerById({ db, id, actorId: actor.id })))
      throw new AppError("not_found:mcp_server");
    return { id };
  },
);
