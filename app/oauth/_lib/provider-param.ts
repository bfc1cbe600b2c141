import { z } from "zod";
import { OAuthError } from "@/lib/oauth/oauth-error";
import { providerNameSchema } from "@/lib/oauth/provider-registry";

const providerParamsSchema = z.object({ provider: providerNameSchema });

/** The `[provider]` segment of an OAuth route, or `provider:unknown` when it cannot be one. */
export function parseProviderParam(params: unknown): string {
  const parsed = providerParamsSchema.safeParse(params);
  if (!parsed.success) throw new OAuthError("provider:unknown", "No such sign-in provider");
  return parsed.data.provider;
}
