import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { listOAuthProviders } from "@/lib/auth/auth-config";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "@/lib/auth/demo-accounts";
import { isDemoMode } from "@/lib/auth/demo-mode";
import { getPageUser } from "@/lib/auth/guards";
import { safeCallbackPath } from "@/lib/auth/login-input";
import { signInWithProvider } from "./actions";
import { LoginForm } from "./login-form";

export const metadata: Metadata = { title: "Sign in · toolnexus" };

// next-auth sends people back here with `?error=<type>`; say what happened in plain words.
const ERROR_MESSAGES: Record<string, string> = {
  CredentialsSignin: "Wrong email or password.",
  AccessDenied: "Access was denied.",
  OAuthCallbackError: "Sign-in was cancelled or failed at the provider.",
  OAuthAccountNotLinked: "This email is already linked to another sign-in method.",
  Configuration: "Sign-in is not configured correctly on the server.",
  UnknownProvider: "That sign-in method is not available.",
};

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const callbackUrl = safeCallbackPath(first(params.callbackUrl));
  if (await getPageUser()) redirect(callbackUrl);

  const errorType = first(params.error);
  // A sign-in posted straight to next-auth's endpoint and refused by the throttle comes back as
  // `?error=CredentialsSignin&code=throttled`; the form itself says exactly how long to wait.
  const throttled = errorType === "CredentialsSignin" && first(params.code) === "throttled";
  const error = throttled
    ? "Too many sign-in attempts. Wait a few minutes, then try again."
    : errorType
      ? (ERROR_MESSAGES[errorType] ?? "Sign-in failed. Please try again.")
      : undefined;
  const demo = isDemoMode();
  const providers = listOAuthProviders();

  return (
    <div className="narrow stack">
      <section className="card stack" aria-labelledby="login-title">
        <h1 id="login-title" className="page-title">
          Sign in to toolnexus
        </h1>
        {error && (
          <p className="alert alert-error" role="alert">
            {error}
          </p>
        )}
        {providers.length > 0 && (
          <div className="provider-list">
            {providers.map((provider) => (
              <form key={provider.id} action={signInWithProvider}>
                <input type="hidden" name="provider" value={provider.id} />
                <input type="hidden" name="callbackUrl" value={callbackUrl} />
                <button type="submit" className="button button-secondary button-block">
                  Continue with {provider.name}
                </button>
              </form>
            ))}
          </div>
        )}
        {providers.length > 0 && demo && <p className="divider">or use a demo account</p>}
        {demo && <LoginForm callbackUrl={callbackUrl} />}
        {!demo && providers.length === 0 && (
          <p className="alert alert-info">No sign-in method is configured. See the README.</p>
        )}
      </section>

      {demo && (
        <section className="card demo-credentials" aria-labelledby="demo-title">
          <h2 id="demo-title">
            Demo accounts <span className="badge badge-demo">demo mode</span>
          </h2>
          <p className="muted">
            Every demo account uses the password <code>{DEMO_PASSWORD}</code>.
          </p>
          <table>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
              </tr>
            </thead>
            <tbody>
              {DEMO_ACCOUNTS.map((account) => (
                <tr key={account.email}>
                  <td>
                    <code>{account.email}</code>
                  </td>
                  <td>{account.role}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </div>
  );
}
