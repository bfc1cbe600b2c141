import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/guards";
import { getDb } from "@/lib/db/client";
import { listOAuthConnectionsByUser } from "@/lib/db/oauth-connections";
import { getOAuthRuntime } from "@/lib/oauth/oauth-runtime";
import { providerHost } from "@/lib/oauth/provider-registry";
import { DisconnectButton } from "./disconnect-button";

export const metadata: Metadata = { title: "Connected services · toolnexus" };

export default async function ConnectionsPage() {
  const user = await requirePageUser("/settings/connections");
  const runtime = getOAuthRuntime();
  const connections = await listOAuthConnectionsByUser({ db: getDb(), userId: user.id });
  const connected = new Map(connections.map((c) => [c.provider, c]));
  const providers = [...runtime.registry.values()];

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
                    Connected since {connection.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC
                    with access to: <code>{connection.scopes || "—"}</code>
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
    </div>
  );
}
