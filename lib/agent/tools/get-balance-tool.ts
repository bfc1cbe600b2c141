import { defineTool, type Tool } from "toolnexus";
import { z } from "zod";
import { isDemoMode } from "@/lib/auth/demo-mode";
import type { DbClient } from "@/lib/db/db-types";
import { forgetAccessToken, getUsableAccessToken } from "@/lib/oauth/connection-tokens";
import { callProviderApi } from "@/lib/oauth/oauth-client";
import { getOAuthRuntime, type OAuthRuntime } from "@/lib/oauth/oauth-runtime";
import { DEMO_PROVIDER, getProviderConfig, loadProviderRegistry } from "@/lib/oauth/provider-registry";
import { signInRequest } from "@/lib/oauth/sign-in-request";
import { type Clock, expiresIn, systemClock } from "./tool-clock";

/** The tool is offered only where its provider exists (always in demo mode). */
export function isBalanceProviderConfigured(env: Record<string, string | undefined> = process.env): boolean {
  return loadProviderRegistry({ env, demoMode: isDemoMode(env) }).has(DEMO_PROVIDER);
}

export const GET_BALANCE_AUTH_TTL_MS = 30 * 60 * 1000;

const balanceSchema = z.object({ account: z.string(), amount: z.number(), currency: z.string() });

/**
 * Reads the user's balance from the provider's API with the token stored for them. The token
 * is looked up and used here, server-side; the tool's output carries only the balance, and the
 * sign-in request carries only a link to the app, so no credential reaches the model.
 */
export function createGetBalanceTool(options: {
  userId: string;
  provider?: string;
  clock?: Clock;
  db?: DbClient;
  runtime?: OAuthRuntime;
}): Tool {
  const clock = options.clock ?? systemClock;
  const providerName = options.provider ?? DEMO_PROVIDER;
  return defineTool({
    name: "get_balance",
    description:
      "Read the user's current account balance at their bank. Asks the user to sign in to the bank the first time.",
    annotations: { title: "Read the bank balance", readOnlyHint: true, openWorldHint: true },
    run: async (_args, ctx) => {
      // Loaded on first use: the db client is server-only, and the toolkit is also built in
      // plain Node processes (tests, benchmarks) that never call this tool.
      const db = options.db ?? (await import("@/lib/db/sql/client")).getDb();
      const runtime = options.runtime ?? getOAuthRuntime();
      const provider = getProviderConfig(runtime.registry, providerName);
      const signIn = () =>
        signInRequest({
          appUrl: runtime.appUrl,
          provider,
          prompt: `Sign in to ${provider.label} so I can read your balance.`,
          ...(ctx?.idempotencyKey ? { idempotencyKey: ctx.idempotencyKey } : {}),
          expiresAt: expiresIn(clock, GET_BALANCE_AUTH_TTL_MS),
        });

      const token = await getUsableAccessToken({
        db,
        runtime,
        userId: options.userId,
        provider: provider.name,
        now: clock(),
      });
      if (token.status === "missing") return signIn();

      const result = await callProviderApi({ provider, accessToken: token.accessToken, path: "api/balance" });
      if (result.status === "unauthorized") {
        // Revoked or otherwise dead: forget it, and ask for a fresh authorization.
        await forgetAccessToken({
          db,
          userId: options.userId,
          provider: provider.name,
          accessTokenEnc: token.accessTokenEnc,
        });
        return signIn();
      }
      if (result.status === "failed")
        throw new Error(`${provider.label} answered with HTTP ${result.httpStatus}`);
      const balance = balanceSchema.parse(result.body);
      const amount = balance.amount.toLocaleString("en-US", {
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      });
      return `Your ${provider.label} balance (${balance.account}) is ${amount} ${balance.currency}.`;
    },
  });
}
