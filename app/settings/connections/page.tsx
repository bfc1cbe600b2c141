import type { Metadata } from "next";
import { getAppServices } from "@/app/_lib/app-services";
import { LocalTime } from "@/components/local-time";
import { signInServerOf } from "@/lib/agent/mcp/app-mcp-pool";
import { requirePageUser } from "@/lib/auth/guards";
import { listMcpConnectionsByUser } from "@/lib/db/mcp-connections";
import { listOAuthConnectionsByUser } from "@/lib/db/oauth-connections";
import { getDb } from "@/lib/db/sql/client";
import { getOAuthRuntime } from "@/lib/oauth/oauth-runtime";
import { providerHost } from "@/lib/oauth/provider-registry";
import { DisconnectButton, DisconnectMcpButton } from "./disconnect-button";

export const metadata: Metadata = { title: "Connected services · toolnexus" };

export default async function ConnectionsPage() {
  const user = await requirePageUser("/settings/connections");
  const runtime = getOAuthRuntime();
  const connections = await listOAuthConnectionsByUser({ db: getDb(), userId: user.id });
  const connected = new Map(connections.map((c) => [c.provider, c]));
  const providers = [...runtime.registry.values()];
  const { mcp } = await getAppServices();
  const mcpConnected = new Map(
    (await listMcpConnectionsByUser({ db: getDb(), userId: user.id })).map((c) => [c.server, c]),
  );
  // Every server users sign in to, plus any connection whose server has since gone.
  const mcpServers = new Map<string, string | undefined>();
  for (const server of (await mcp.configured()).servers) {
    const signIn = server.status === "enabled" ? signInServerOf(server.name, server.entry) : undefined;
    if (signIn) mcpServers.set(server.name, new URL(signIn.url).host);
  }
  for (const name of mcpConnected.keys()) if (!mcpServers.has(name)) mcpServers.set(name, undefined);

  return (
    <div className="stack">
      <h1 className="page-title">Connected services</h1>
      <p className="muted">
        Tools that act on your behalf at another service ask you to sign in there once. The access they get is
        kept encrypted on the server and is never shown to the model. Disconnect to revoke it.
      </p>
      {providers.length === 0 && <p>No services are configured.</p>}
      <ul className="stack" aria-label="Services">
        {providers.map((provider) => {
          const connection = connected.get(provider.name);
          return (
            <li key={provider.name} className="card stack" data-testid={`connection-${provider.name}`}>
              <h2>
                {provider.label} <span className="muted">({providerHost(provider)})</span>
              </h2>
              {connection ? (
                <>
                  <p>
                    Connected since <LocalTime dateTime={connection.createdAt.toISOString()} /> with access
                    to: <code>{connection.scopes || "—"}</code>
                  </p>
                  <DisconnectButton provider={provider.name} label={provider.label} />
                </>
              ) : (
                <p className="muted">Not connected. A tool will ask you to sign in when it needs access.</p>
              )}
            </li>
          );
        })}
      </ul>
      <h2>MCP servers</h2>
      <p className="muted">
        Some MCP servers act for you with your own account there: their tools ask you to sign in the first
        time. Each connection is yours alone.
      </p>
      {mcpServers.size === 0 && <p>No MCP server asks its users to sign in.</p>}
      <ul className="stack" aria-label="MCP servers">
        {[...mcpServers].map(([name, host]) => {
          const connection = mcpConnected.get(name);
          return (
            <li key={name} className="card stack" data-testid={`mcp-connection-${name}`}>
              <h2>
                {name} {host && <span className="muted">({host})</span>}
              </h2>
              {connection ? (
                <>
                  <p>
                    Connected (last renewed <LocalTime dateTime={connection.updatedAt.toISOString()} />) with
                    access to: <code>{connection.scopes || "—"}</code>
                  </p>
                  <DisconnectMcpButton server={name} />
                </>
              ) : (
                <p className="muted">Not connected. Its tools will ask you to sign in when they need to.</p>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
