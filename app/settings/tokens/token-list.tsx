"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { formatUtc } from "@/components/admin/format-utc";
import { type ChatAllowanceItem, ChatAllowances } from "@/components/chat/chat-allowances";
import type { ApiTokenRow } from "@/lib/db/api-tokens";
import { type ActionResult, unsentResult } from "@/lib/errors";

type Revoke = (input: { tokenId: string }) => Promise<ActionResult<unknown>>;

/** The owner's "always allow <tool> for this token" grants, with a way to take each back. */
export interface TokenGrants {
  items: (ChatAllowanceItem & { tokenId: string })[];
  revoke: (input: { tokenId: string; toolName: string }) => Promise<ActionResult<unknown>>;
}

function GrantsOf({ token, grants }: { token: ApiTokenRow; grants: TokenGrants }) {
  const router = useRouter();
  const allowances = grants.items.filter((grant) => grant.tokenId === token.id);
  return (
    <ChatAllowances
      allowances={allowances}
      where={`for ${token.name}`}
      revoke={async ({ toolName }) => {
        const result = await grants.revoke({ tokenId: token.id, toolName });
        router.refresh();
        return result;
      }}
    />
  );
}

function stateOf(token: ApiTokenRow, now: number): string {
  if (token.revokedAt) return `revoked ${formatUtc(token.revokedAt)}`;
  if (token.expiresAt && Date.parse(token.expiresAt) <= now) return `expired ${formatUtc(token.expiresAt)}`;
  return token.expiresAt ? `active, expires ${formatUtc(token.expiresAt)}` : "active, never expires";
}

function RevokeButton({ token, revoke }: { token: ApiTokenRow; revoke: Revoke }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        className="button button-danger"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          const result = await revoke({ tokenId: token.id }).catch(() =>
            unsentResult("The token could not be revoked. Please try again."),
          );
          setBusy(false);
          setError(result.ok ? null : result.error.message);
          router.refresh();
        }}
      >
        Revoke {token.name}
      </button>
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </>
  );
}

/** Tokens as their owner (or an admin) sees them: never the token, only its first characters. */
export function TokenList({
  tokens,
  revoke,
  showOwner = false,
  now,
  grants,
}: {
  tokens: ApiTokenRow[];
  revoke: Revoke;
  showOwner?: boolean;
  /** Shown to the tokens' owner only. */
  grants?: TokenGrants;
  /** The server's clock when the page was read, so server and browser render the same state. */
  now: number;
}) {
  if (tokens.length === 0) return <p className="muted">No tokens.</p>;
  return (
    <div className="admin-table-wrap">
      <table className="admin-table" aria-label="API tokens">
        <thead>
          <tr>
            <th scope="col">Name</th>
            {showOwner && <th scope="col">Owner</th>}
            <th scope="col">Token</th>
            <th scope="col">Scopes</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">State</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => (
            <tr key={token.id} data-testid={`token-${token.name}`}>
              <td>{token.name}</td>
              {showOwner && <td>{token.ownerName ?? token.userId}</td>}
              <td>
                <code>{token.prefix}…</code>
              </td>
              <td>{token.scopes.join(", ")}</td>
              <td>{formatUtc(token.createdAt)}</td>
              <td>{token.lastUsedAt ? formatUtc(token.lastUsedAt) : "never"}</td>
              <td>{stateOf(token, now)}</td>
              <td>
                {!token.revokedAt && <RevokeButton token={token} revoke={revoke} />}
                {grants && <GrantsOf token={token} grants={grants} />}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
