import type { Metadata } from "next";
import Link from "next/link";
import { apiRateLimit, apiTokenLimit } from "@/lib/auth/api-token-auth";
import { requirePageUser } from "@/lib/auth/guards";
import { listApiTokenToolGrantsByUser } from "@/lib/db/api-token-grants";
import { countActiveApiTokensByUser, listApiTokensByUser } from "@/lib/db/api-tokens";
import { getDb } from "@/lib/db/sql/client";
import "@/components/admin/admin.css";
import "@/components/chat/chat.css";
import { createTokenAction, revokeOwnTokenAction, revokeTokenGrantAction } from "./actions";
import { CreateTokenForm } from "./create-token-form";
import { TokenList } from "./token-list";

export const metadata: Metadata = { title: "API tokens · toolnexus" };

export default async function TokensPage() {
  const user = await requirePageUser("/settings/tokens");
  const db = getDb();
  const [tokens, working, grants] = await Promise.all([
    listApiTokensByUser({ db, userId: user.id }),
    countActiveApiTokensByUser({ db, userId: user.id, now: new Date() }),
    listApiTokenToolGrantsByUser({ db, userId: user.id }),
  ]);

  return (
    <div className="stack">
      <h1 className="page-title">API tokens</h1>
      <p className="muted">
        A token lets a program ask people through this inbox with the HTTP API (see{" "}
        <Link href="/docs/api">the API reference</Link>): it makes requests as you, and they are answered here
        like any other. It works only with the API, never to sign in, and at most {apiRateLimit()} calls a
        minute. Only a fingerprint of it is kept, so it is shown once. You hold {working} of the{" "}
        {apiTokenLimit()} working tokens one person may have.
      </p>
      <CreateTokenForm createToken={createTokenAction} />
      <section className="card stack" aria-labelledby="tokens-title">
        <h2 id="tokens-title">Your tokens</h2>
        <TokenList
          tokens={tokens}
          revoke={revokeOwnTokenAction}
          now={Date.now()}
          grants={{
            items: grants.map((grant) => ({
              tokenId: grant.tokenId,
              toolName: grant.toolName,
              createdAt: grant.createdAt.toISOString(),
            })),
            revoke: revokeTokenGrantAction,
          }}
        />
      </section>
    </div>
  );
}
