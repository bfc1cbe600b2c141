import { z } from "zod";

/** What the sign-in form posts; shared by the server action and the Credentials provider. */
export const loginInputSchema = z.object({
  email: z.string().trim().min(1, "Enter your email address.").pipe(z.email("Enter a valid email address.")),
  password: z.string().min(1, "Enter your password.").max(200, "That password is too long."),
  callbackUrl: z.string().max(2_000).optional(),
});

export type LoginInput = z.infer<typeof loginInputSchema>;

export type LoginFieldErrors = Partial<Record<"email" | "password", string>>;

export type LoginParse =
  | { status: "valid"; input: LoginInput }
  | { status: "invalid"; fieldErrors: LoginFieldErrors };

function field(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === "string" ? value : undefined;
}

export function parseLoginForm(form: FormData): LoginParse {
  const parsed = loginInputSchema.safeParse({
    email: field(form, "email") ?? "",
    password: field(form, "password") ?? "",
    callbackUrl: field(form, "callbackUrl") || undefined,
  });
  if (parsed.success) return { status: "valid", input: parsed.data };
  const fieldErrors: LoginFieldErrors = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path[0];
    if ((key === "email" || key === "password") && !fieldErrors[key]) fieldErrors[key] = issue.message;
  }
  return { status: "invalid", fieldErrors };
}

/**
 * Only same-site paths may follow a sign-in; anything else (absolute URLs, protocol-relative
 * `//host`, backslash tricks) falls back to the home page, which sends each person where they start
 * (the inbox for a reviewer with something waiting, else the chat): never an open redirect.
 */
export function safeCallbackPath(raw: string | undefined | null, fallback = "/"): string {
  if (!raw?.startsWith("/") || raw.startsWith("//") || raw.includes("\\")) return fallback;
  for (const char of raw) if (char.charCodeAt(0) < 0x20) return fallback;
  return raw;
}
