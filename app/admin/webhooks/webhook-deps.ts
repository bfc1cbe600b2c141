import "server-only";
import { getAppServices } from "@/app/_lib/app-services";
import type { WebhookDeps } from "@/app/admin/_lib/manage-webhooks";
import { outboundPrivateAllowed } from "@/lib/http/outbound-address";
import { getOAuthRuntime } from "@/lib/oauth/oauth-runtime";

/** What managing endpoints needs from the running app: its database, its key and the address rule. */
export async function webhookDeps(): Promise<WebhookDeps> {
  const { db } = await getAppServices();
  return { db, keys: () => getOAuthRuntime().keys, allowPrivate: outboundPrivateAllowed() };
}
