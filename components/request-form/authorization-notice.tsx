"use client";

interface AuthorizationNoticeProps {
  /**
   * Where the user goes to grant access (the app's start link for the provider). Without one
   * the button stays disabled: a dead link would be worse than an honest disabled button.
   */
  continueHref?: string;
  /** The provider's host as the request names it; the link itself points at this app. */
  host?: string;
}

/**
 * The way out to the provider. The prompt is not repeated here: the card and the request page
 * already show it above the form, and saying it twice read as two requests.
 */
export function AuthorizationNotice({ continueHref, host }: AuthorizationNoticeProps) {
  if (continueHref) {
    return (
      <div className="tn-authorization">
        <a className="button" href={continueHref}>
          Continue to {host ?? safeHost(continueHref)}
        </a>
      </div>
    );
  }
  return (
    <div className="tn-authorization">
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
