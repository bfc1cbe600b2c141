import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { mintApiToken } from "@/lib/auth/api-token-auth";
import { createApiRequest } from "@/lib/db/api-requests";
import { createApiToken } from "@/lib/db/api-tokens";
import type { DbClient } from "@/lib/db/db-types";
import type { TestDatabase, TestProvider } from "@/lib/db/testing/test-database";
import { digestDueAt } from "./mail-worker";
import { MAIL_APP_URL, withMailCatcher } from "./testing/mail-fixture";
import { parkRequests } from "./testing/park-requests";

// Mail about a request carries someone's words: here, that they cannot pass for the app's (the
// prompt quoted and defanged, the one link the app's own, who asked said), and that one person's
// requests cannot flood reviewers' mailboxes (past the hourly allowance, they wait for a digest,
// counted in the database across instances). A real SMTP server on both databases.

const APP = MAIL_APP_URL;
const WINDOW = 60 * 60_000;

describe.each<TestProvider>(["sqlite", "postgres"])("mail that quotes people on %s", (provider) => {
  let database: TestDatabase;
  const { person, mailTo, worker } = withMailCatcher(provider, (started) => ({ database } = started));
  const apiRequest = async (ownerId: string, tokenName: string, prompt: string) => {
    const minted = mintApiToken();
    const token = await createApiToken({
      db: database.db,
      userId: ownerId,
      name: tokenName,
      scopes: ["requests:write"],
      expiresAt: null,
      limit: 20,
      tokenHash: minted.tokenHash,
      prefix: minted.prefix,
    });
    if (token.status !== "created") throw new Error("no token");
    const made = await createApiRequest({
      db: database.db,
      input: {
        ownerId,
        apiTokenId: token.row.id,
        audience: "reviewers",
        request: { kind: "approval", prompt },
        idempotencyKey: null,
        createHash: randomUUID(),
      },
    });
    if (made.status !== "created") throw new Error("no request");
    return { id: made.request.id, token: minted.token };
  };

  it("quotes a prompt as defanged plain text, links only the request, and says who asked through which token", async () => {
    const [alice, rita] = await Promise.all([person("user", "Alice"), person("reviewer", "Rita")]);
    const prompt = "Session expired: sign in again at https://evil.example/login\nor mail help@evil.example";
    const { id, token } = await apiRequest(alice.id, "ci <b>'bot'</b>", prompt);
    await worker().tick();
    const [mail] = mailTo(rita.email);
    expect(mail).toBeDefined();
    const { subject, text, html } = mail!;
    for (const part of [subject, text, html ?? ""]) {
      expect(part).not.toContain("evil.example");
      expect(part).not.toMatch(/https?:\/\/evil/);
      expect(part).not.toContain(token);
    }
    expect(subject).toMatch(
      /^Approval needed: “Session expired: sign in again at hxxps:\/\/evil\[\.\]example\/login or mail .*…”$/,
    );
    // The text part: who asked, then the prompt as a quote, each of its lines marked.
    expect(text).toContain("Asked by Alice via API token 'ci <b>\\'bot\\'</b>'.");
    expect(text).toContain(
      "> Session expired: sign in again at hxxps://evil[.]example/login\n> or mail help@evil[.]example",
    );
    expect(text).toContain(`Open the request: ${APP}/requests/${id}`);
    expect(text.startsWith("Approval needed\nAsked by")).toBe(true);
    // The HTML part: the prompt in a blockquote as escaped text, and no link but the app's own.
    expect(html).toMatch(
      /<blockquote[^>]*>Session expired: sign in again at hxxps:\/\/evil\[\.\]example\/login<br>or mail help@evil\[\.\]example<\/blockquote>/,
    );
    expect(html).toContain("Asked by Alice via API token &#39;ci &lt;b&gt;\\&#39;bot\\&#39;&lt;/b&gt;&#39;.");
    expect(html).not.toContain("<b>");
    const links = [...html!.matchAll(/<a\s[^>]*href="([^"]*)"/g)].map((match) => match[1]);
    expect(links).toEqual([`${APP}/requests/${id}`]);
  });

  it("says whose chat asked for a tool's request", async () => {
    const [owner, rita] = await Promise.all([person("user", "Olga"), person("reviewer", "Rita")]);
    await parkRequests(database.db, owner.id, [{ audience: "reviewers", prompt: "Deploy web v1.4?" }]);
    await worker().tick();
    const [mail] = mailTo(rita.email);
    expect(mail?.text).toContain("Approval needed · tool deploy\nAsked by Olga's chat.");
    expect(mail?.text).toContain("> Deploy web v1.4?");
  });

  it("past one person's hourly allowance, still makes the requests and mails them as one digest, however many instances", async () => {
    const [alice, bob, rita] = await Promise.all([
      person("user", "Alice"),
      person("user", "Bob"),
      person("reviewer", "Rita"),
    ]);
    const clock = new Date(Date.now() + 60_000);
    const limit = { TOOLNEXUS_MAIL_HOURLY_LIMIT: "3" };
    // Two instances on connections of their own share the count in the database.
    const instance = (db: DbClient) => worker({ db, now: () => clock }, limit);
    const [a, b] = [instance(database.connect()), instance(database.connect())];
    const ask = async (n: number) => {
      const made = [];
      for (let i = 0; i < n; i++) made.push((await apiRequest(alice.id, "ci", `Ship build ${i}?`)).id);
      return made;
    };
    const first = await ask(2);
    await a.tick();
    const rest = await ask(3);
    // The other instance, which has mailed nothing itself, finds the allowance two thirds used.
    await b.tick();
    await Promise.all([a.tick(), b.tick()]);
    // Every request was made; three were mailed at once, the other two wait for the digest.
    expect(await database.db.request.count({ where: { ownerId: alice.id, status: "open" } })).toBe(5);
    expect(mailTo(rita.email)).toHaveLength(3);
    expect(
      await database.db.mailItem.count({ where: { userId: rita.id, mode: "digest", status: "queued" } }),
    ).toBe(2);
    // Someone else's requests draw on their own allowance.
    await apiRequest(bob.id, "ci", "Bob's build?");
    await a.tick();
    expect(mailTo(rita.email)).toHaveLength(4);

    const later = new Date(digestDueAt(clock, WINDOW).getTime() + 1);
    const after = [
      worker({ now: () => later }, limit),
      worker({ now: () => later, db: database.connect() }, limit),
    ];
    await Promise.all(after.map((one) => one.tick()));
    const mails = mailTo(rita.email);
    expect(mails).toHaveLength(5);
    expect(mails[4]!.subject).toBe("2 requests wait for you");
    const mailed = [...first, ...rest].filter((id) =>
      mails.some((mail) => mail.text.includes(`/requests/${id}`)),
    );
    expect(mailed).toHaveLength(5);
  });
});
