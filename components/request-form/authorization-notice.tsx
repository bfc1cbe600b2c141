"use client";

interface AuthorizationNoticeProps {
  prompt: string;
  /**
   * Where the user goes to grant access. Without it the button stays disabled: the redirect
   * flow is not wired yet, and a dead link would be worse than an honest disabled button.
   */
  continueHref?: string;
}

export function AuthorizationNotice({ prompt, continueHref }: AuthorizationNoticeProps) {
  if (continueHref) {
    const host = safeHost(continueHref);
    return (
      <div className="tn-authorization">
        <p>{prompt}</p>
        <a className="button" href={continueHref}>
          Continue to {host}
        </a>
      </div>
    );
  }
  return (
    <div className="tn-authorization">
      <p>{prompt}</p>
      <button type="button" className="button" disabled>
        Sign-in required
      </button>
    </div>
  );
}

function safeHost(href: string): string {
  try {
    return new URL(href).host;
  } catch {
    return "the provider";
  }
}
