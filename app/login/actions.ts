"use server";

import { redirect } from "next/navigation";
import { AuthError } from "next-auth";
import { z } from "zod";
import { listOAuthProviders } from "@/lib/auth/auth-config";
import { isDemoMode } from "@/lib/auth/demo-mode";
import { parseLoginForm, safeCallbackPath } from "@/lib/auth/login-input";
import { describeRetryAfter } from "@/lib/auth/login-throttle";
import { auth, signIn, signOut } from "@/lib/auth/next-auth";
import { ThrottledSignIn } from "@/lib/auth/password-sign-in";
import type { LoginState } from "./login-state";

// Signing in is the one kind of action without a session check: it is how a session starts.

export async function signInWithPassword(_previous: LoginState, form: FormData): Promise<LoginState> {
  const email = typeof form.get("email") === "string" ? String(form.get("email")) : "";
  if (!isDemoMode()) {
    return { status: "error", email, message: "Password sign-in is only available in demo mode." };
  }
  const parsed = parseLoginForm(form);
  if (parsed.status === "invalid") return { status: "invalid", email, fieldErrors: parsed.fieldErrors };

  const { input } = parsed;
  try {
    await signIn("credentials", {
      email: input.email,
      password: input.password,
      redirectTo: safeCallbackPath(input.callbackUrl),
    });
  } catch (error) {
    // Success leaves through a redirect, which Next implements as a throw: let it pass.
    if (error instanceof ThrottledSignIn) {
      return { status: "error", email, message: describeRetryAfter(error.retryAfterSeconds) };
    }
    if (error instanceof AuthError) return { status: "error", email, message: "Wrong email or password." };
    throw error;
  }
  return { status: "idle" };
}

const providerFormSchema = z.object({
  provider: z.string().min(1),
  callbackUrl: z.string().max(2_000).optional(),
});

export async function signInWithProvider(form: FormData): Promise<void> {
  const parsed = providerFormSchema.safeParse({
    provider: form.get("provider"),
    callbackUrl: form.get("callbackUrl") || undefined,
  });
  const known = listOAuthProviders().map((p) => p.id);
  if (!parsed.success || !known.includes(parsed.data.provider)) redirect("/login?error=UnknownProvider");
  await signIn(parsed.data.provider, { redirectTo: safeCallbackPath(parsed.data.callbackUrl) });
}

export async function signOutAction(): Promise<void> {
  const session = await auth();
  if (!session?.user) redirect("/login");
  await signOut({ redirectTo: "/login" });
}
