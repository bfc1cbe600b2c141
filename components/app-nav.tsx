import Link from "next/link";
import { hasRole, type Role } from "@/lib/domain/roles";
import { Disclosure } from "./disclosure";
import { InboxCountProvider, WaitingLink } from "./inbox-count";
import { ModelBadge, type ModelLabel } from "./model-badge";
import { NavLinks } from "./nav-links";
import { RoleBadge } from "./role-badge";

export interface NavUser {
  name: string | null;
  email: string | null;
  role: Role;
}

/** The header of every page. The page shell passes in who is signed in and how to sign out. */
export function AppNav({
  user,
  model,
  signOutAction,
  inboxCount,
}: {
  user: NavUser | null;
  /** How many requests wait for the signed-in person (the nav keeps it live). */
  inboxCount?: number;
  model: ModelLabel;
  signOutAction: () => Promise<void>;
}) {
  return (
    <header className="app-header">
      <nav className="app-nav" aria-label="Main">
        <Link href="/chat" className="app-brand">
          toolnexus
        </Link>
        {user ? (
          // On a phone the links and the account fold into one menu, so the header stays one row;
          // the waiting count stays outside it, beside the menu button, as a link to the inbox.
          <InboxCountProvider initial={inboxCount ?? 0}>
            <WaitingLink />
            <Disclosure label="Menu" className="app-menu" toggleClassName="app-menu-toggle">
              <NavLinks admin={hasRole(user.role, "admin")} reviewer={hasRole(user.role, "reviewer")} />
              <div className="app-account">
                <ModelBadge model={model} />
                <span data-testid="signed-in-user">
                  <span className="visually-hidden">Signed in as </span>
                  {user.name ?? user.email}
                </span>
                <RoleBadge role={user.role} />
                <form action={signOutAction}>
                  <button type="submit" className="link-button">
                    Sign out
                  </button>
                </form>
              </div>
            </Disclosure>
          </InboxCountProvider>
        ) : (
          <div className="app-account">
            <ModelBadge model={model} />
            <Link href="/login">Sign in</Link>
          </div>
        )}
      </nav>
    </header>
  );
}
