import "server-only";
import { CredentialsSignin } from "next-auth";
import type { DbClient } from "@/lib/db/db-types";
import { clientAddressFrom, parseTrustedProxies } from "@/lib/http/client-address";
import { loginInputSchema } from "./login-input";
import { clearSignInAttempts, countSignInAttempt } from "./login-throttle";
import type { SessionUser } from "./session-user";
import { verifyCredentials } from "./verify-credentials";

/** Refused before the password was looked at: too many recent attempts for the account or address. */
export class ThrottledSignIn extends CredentialsSignin {
  code = "throttled";
  readonly retryAfterSeconds: number;

  constructor(retryAfterSeconds: number) {
    super();
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * The Credentials provider's check. Unknown emails and wrong passwords take the same path, cost
 * the same bcrypt comparison and count against the same limits, so neither the answer nor its
 * timing tells whether an account exists.
 */
export async function authorizePassword({
  db,
  raw,
  request,
}: {
  db: DbClient;
  raw: unknown;
  request: Request;
}): Promise<SessionUser | null> {
  const parsed = loginInputSchema.safeParse(raw);
  if (!parsed.success) return null;
  const { email, password } = parsed.data;
  const address = clientAddressFrom(request.headers.get("x-forwarded-for"), parseTrustedProxies());
  const decision = await countSignInAttempt({ db, email, address });
  if (decision.status === "throttled") throw new ThrottledSignIn(decision.retryAfterSeconds);
  const user = await verifyCredentials({ db, email, password });
  if (user) await clearSignInAttempts({ db, email, address });
  return user;
}
